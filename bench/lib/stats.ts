/** Order statistics for benchmark samples (nearest-rank percentiles: every quoted value was really measured). */

/** The p-th percentile (0-100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** The median; for an even count the mean of the two middle samples. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export interface Distribution {
  count: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function distribution(samples: readonly number[]): Distribution {
  const sum = samples.reduce((total, value) => total + value, 0);
  return {
    count: samples.length,
    min: samples.length ? Math.min(...samples) : Number.NaN,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: samples.length ? Math.max(...samples) : Number.NaN,
    mean: samples.length ? sum / samples.length : Number.NaN,
  };
}

/** Rounds for display and JSON: 0.1 ms / 0.1 MB is finer than these measurements can resolve anyway. */
export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export const MB = 1024 * 1024;

/**
 * The Theil–Sen slope of `points` (x, y): the median of the slopes between every pair of points with different x.
 * A trend that a few outliers cannot tilt, for noisy series such as a probe's lag sampled once a second; NaN for
 * fewer than two distinct x.
 */
export function trend(points: readonly { x: number; y: number }[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i] as { x: number; y: number };
      const b = points[j] as { x: number; y: number };
      if (a.x !== b.x) slopes.push((b.y - a.y) / (b.x - a.x));
    }
  }
  return median(slopes);
}
