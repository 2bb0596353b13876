import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { trend } from "./stats.ts";

describe("trend (Theil–Sen slope)", () => {
  it("finds a steady growth through noise and a few outliers", () => {
    // A lag growing 100 ms per second, ±50 ms of noise, two samples far off.
    const points = Array.from({ length: 30 }, (_, x) => ({ x, y: 500 + 100 * x + (x % 2 === 0 ? 50 : -50) }));
    points[3] = { x: 3, y: 9000 };
    points[20] = { x: 20, y: 0 };
    const slope = trend(points);
    assert.ok(slope > 90 && slope < 110, String(slope));
  });

  it("is about zero for a noisy series without a trend", () => {
    // A steady 30-s load run's probe lags (ms, one a second): spread 170-1,600 ms, no backlog building up.
    const noise = [
      1561, 587, 496, 654, 954, 621, 722, 1152, 871, 1506, 437, 211, 990, 806, 1059, 1383, 388, 1126, 1595, 619, 206, 1237, 769,
      1018, 1177, 1172, 174, 232, 839,
    ];
    const slope = trend(noise.map((y, x) => ({ x, y })));
    assert.ok(Math.abs(slope) < 10, String(slope));
  });

  it("is NaN without two distinct x", () => {
    assert.ok(Number.isNaN(trend([])));
    assert.ok(
      Number.isNaN(
        trend([
          { x: 1, y: 2 },
          { x: 1, y: 3 },
        ]),
      ),
    );
  });
});
