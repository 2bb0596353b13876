import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AirQuality } from "@matter/main/clusters/air-quality";
import { FanControl } from "@matter/main/clusters/fan-control";
import { airQualityFor } from "./air-quality.ts";
import { haPositionToMatter, matterToHaPosition, positionFromCoverState } from "./cover.ts";
import {
  fanModeForPercentage,
  fanModeSequenceFor,
  percentageForFanMode,
  percentageToSpeed,
  snapPercentage,
  speedToPercentage,
} from "./fan.ts";
import {
  brightnessToLevel,
  colorTempRange,
  hueFromMatter,
  hueToMatter,
  kelvinToMireds,
  levelToBrightness,
  levelToVolume,
  miredsToKelvin,
  saturationFromMatter,
  saturationToMatter,
  volumeToLevel,
  xyFromMatter,
  xyToMatter,
} from "./light.ts";
import { flowToMatter, humidityToMatter, luxToMatter, matterToLux, pressureToMatter } from "./measurements.ts";
import { fromCentiCelsius, toCentiCelsius } from "./temperature.ts";

describe("brightness ↔ level", () => {
  test("HA 0..255 scales onto Matter 1..254 with the ends pinned", () => {
    assert.equal(brightnessToLevel(255), 254);
    assert.equal(brightnessToLevel(1), 1);
    assert.equal(brightnessToLevel(0), 1, "a light that is on never reports level 0");
    assert.equal(brightnessToLevel(128), 127);
    assert.equal(levelToBrightness(254), 255);
    assert.equal(levelToBrightness(1), 1);
  });

  test("every Matter level survives the round trip through HA brightness", () => {
    for (let level = 1; level <= 254; level++) assert.equal(brightnessToLevel(levelToBrightness(level)), level);
  });

  test("speaker volume 0..1 ↔ level 0..254", () => {
    assert.equal(volumeToLevel(0), 0);
    assert.equal(volumeToLevel(1), 254);
    assert.equal(volumeToLevel(0.5), 127);
    assert.equal(levelToVolume(127), 0.5);
    assert.equal(levelToVolume(254), 1);
  });
});

describe("colour temperature", () => {
  const range = colorTempRange(2200, 6500);

  test("range in mireds is the inverse of kelvin (min mireds = max kelvin)", () => {
    assert.deepEqual(range, { minKelvin: 2200, maxKelvin: 6500, minMireds: 153, maxMireds: 455 });
  });

  test("swapped or missing HA limits fall back to HA's defaults and order", () => {
    assert.deepEqual(colorTempRange(6500, 2200), range);
    assert.equal(colorTempRange(undefined, undefined).minKelvin, 2000);
    assert.equal(colorTempRange(undefined, undefined).maxKelvin, 6535);
  });

  test("kelvin → mireds clamps to the light's physical range", () => {
    assert.equal(kelvinToMireds(4000, range), 250);
    assert.equal(kelvinToMireds(10_000, range), 153);
    assert.equal(kelvinToMireds(1000, range), 455);
  });

  test("mireds → kelvin clamps to what HA accepts", () => {
    assert.equal(miredsToKelvin(250, range), 4000);
    assert.equal(miredsToKelvin(100, range), 6500);
    assert.equal(miredsToKelvin(600, range), 2200);
  });
});

describe("hue, saturation, xy", () => {
  test("hue degrees ↔ 0..254", () => {
    assert.equal(hueToMatter(0), 0);
    assert.equal(hueToMatter(180), 127);
    assert.equal(hueToMatter(360), 0, "360° is 0°");
    assert.equal(hueToMatter(-90), hueToMatter(270));
    assert.equal(hueFromMatter(127), 180);
    assert.equal(hueFromMatter(254), 360);
  });

  test("saturation % ↔ 0..254", () => {
    assert.equal(saturationToMatter(100), 254);
    assert.equal(saturationToMatter(50), 127);
    assert.equal(saturationFromMatter(254), 100);
    assert.equal(saturationFromMatter(127), 50);
  });

  test("xy 0..1 ↔ 0..65279", () => {
    assert.equal(xyToMatter(0.5), 32768);
    assert.equal(xyToMatter(1), 65279, "clamped to 0xFEFF");
    assert.equal(xyFromMatter(32768), 0.5);
    assert.equal(xyFromMatter(xyToMatter(0.3127)), 0.3127);
  });
});

describe("cover position inversion (complaint #8)", () => {
  test("HA 100 (open) is Matter 0, HA 0 (closed) is Matter 10000", () => {
    assert.equal(haPositionToMatter(100), 0);
    assert.equal(haPositionToMatter(0), 10_000);
    assert.equal(haPositionToMatter(70), 3000);
    assert.equal(haPositionToMatter(120), 0, "clamped");
  });

  test("Matter → HA inverts back", () => {
    assert.equal(matterToHaPosition(0), 100);
    assert.equal(matterToHaPosition(10_000), 0);
    assert.equal(matterToHaPosition(2500), 75);
    for (let position = 0; position <= 100; position++) assert.equal(matterToHaPosition(haPositionToMatter(position)), position);
  });

  test("covers without a position: open = 0, closed = 10000, moving/unknown = keep", () => {
    assert.equal(positionFromCoverState("open"), 0);
    assert.equal(positionFromCoverState("closed"), 10_000);
    assert.equal(positionFromCoverState("opening"), undefined);
    assert.equal(positionFromCoverState("unknown"), undefined);
  });
});

describe("temperature", () => {
  test("°C, °F and K → 0.01 °C", () => {
    assert.equal(toCentiCelsius(21.5, "°C"), 2150);
    assert.equal(toCentiCelsius(70, "°F"), 2111);
    assert.equal(toCentiCelsius(32, "°F"), 0);
    assert.equal(toCentiCelsius(293.15, "K"), 2000);
    assert.equal(toCentiCelsius(-300, "°C"), -27315, "clamped to absolute zero");
  });

  test("0.01 °C → HA unit, snapped to the entity's step", () => {
    assert.equal(fromCentiCelsius(2111, "°F"), 70);
    assert.equal(fromCentiCelsius(2111, "°F", 1), 70);
    assert.equal(fromCentiCelsius(2150, "°C"), 21.5);
    assert.equal(fromCentiCelsius(2160, "°C", 0.5), 21.5);
    assert.equal(fromCentiCelsius(2180, "°C", 0.5), 22);
  });
});

describe("measurements", () => {
  test("humidity % → 0.01 %", () => {
    assert.equal(humidityToMatter(48.3), 4830);
    assert.equal(humidityToMatter(120), 10_000);
  });

  test("pressure in hPa, kPa, mbar, psi and inHg → 0.1 kPa", () => {
    assert.equal(pressureToMatter(1013.25, "hPa"), 1013);
    assert.equal(pressureToMatter(101.3, "kPa"), 1013);
    assert.equal(pressureToMatter(1013, "mbar"), 1013);
    assert.equal(pressureToMatter(14.7, "psi"), 1014);
    assert.equal(pressureToMatter(29.92, "inHg"), 1013);
    assert.equal(pressureToMatter(1, "atm"), undefined);
  });

  test("flow → 0.1 m³/h", () => {
    assert.equal(flowToMatter(2.5, "m³/h"), 25);
    assert.equal(flowToMatter(12, "L/min"), 7);
    assert.equal(flowToMatter(1, "gal/min"), 2);
    assert.equal(flowToMatter(1, "furlong/fortnight"), undefined);
  });

  test("illuminance lux → 10000·log10(lux)+1", () => {
    assert.equal(luxToMatter(1), 1);
    assert.equal(luxToMatter(10), 10_001);
    assert.equal(luxToMatter(1000), 30_001);
    assert.equal(luxToMatter(0), 0, "too dark to measure");
    assert.equal(luxToMatter(1e9), 0xfffe);
    assert.ok(Math.abs(matterToLux(luxToMatter(350)) - 350) < 0.1);
  });

  test("air quality categories from pollutant levels", () => {
    assert.equal(airQualityFor("carbon_dioxide", 600, "ppm"), AirQuality.AirQualityEnum.Good);
    assert.equal(airQualityFor("carbon_dioxide", 1200, "ppm"), AirQuality.AirQualityEnum.Moderate);
    assert.equal(airQualityFor("pm25", 40, "µg/m³"), AirQuality.AirQualityEnum.Moderate);
    assert.equal(airQualityFor("pm25", 500, "µg/m³"), AirQuality.AirQualityEnum.ExtremelyPoor);
    assert.equal(airQualityFor("aqi", 42, undefined), AirQuality.AirQualityEnum.Good);
    assert.equal(airQualityFor("volatile_organic_compounds_parts", 0.5, "ppm"), AirQuality.AirQualityEnum.Moderate);
    assert.equal(airQualityFor("pm10", undefined, "µg/m³"), AirQuality.AirQualityEnum.Unknown);
  });
});

describe("fan speeds (complaint #20)", () => {
  test("percentage ↔ speed follows HA's ceil/floor with percentage_step", () => {
    assert.equal(percentageToSpeed(33, 3), 1);
    assert.equal(percentageToSpeed(34, 3), 2);
    assert.equal(percentageToSpeed(100, 3), 3);
    assert.equal(percentageToSpeed(0, 3), 0);
    assert.equal(percentageToSpeed(1, 4), 1);
    assert.equal(speedToPercentage(1, 3), 33);
    assert.equal(speedToPercentage(2, 3), 66);
    assert.equal(speedToPercentage(4, 4), 100);
    for (let speed = 1; speed <= 7; speed++) assert.equal(percentageToSpeed(speedToPercentage(speed, 7), 7), speed);
  });

  test("a written percentage snaps to what the fan accepts", () => {
    assert.equal(snapPercentage(50, 3), 66);
    assert.equal(snapPercentage(50, 4), 50);
    assert.equal(snapPercentage(40, 0), 100, "on/off fan");
  });

  test("fan modes and sequences", () => {
    const { FanMode, FanModeSequence } = FanControl;
    assert.equal(fanModeSequenceFor(0, false), FanModeSequence.OffHigh);
    assert.equal(fanModeSequenceFor(2, true), FanModeSequence.OffLowHighAuto);
    assert.equal(fanModeSequenceFor(4, false), FanModeSequence.OffLowMedHigh);
    assert.equal(fanModeForPercentage(33, 3), FanMode.Low);
    assert.equal(fanModeForPercentage(66, 3), FanMode.Medium);
    assert.equal(fanModeForPercentage(100, 3), FanMode.High);
    assert.equal(fanModeForPercentage(0, 3), FanMode.Off);
    assert.equal(percentageForFanMode(FanMode.Low, 4), 50);
    assert.equal(percentageForFanMode(FanMode.Medium, 3), 66);
    assert.equal(percentageForFanMode(FanMode.High, 3), 100);
    assert.equal(percentageForFanMode(FanMode.Auto, 3), undefined);
  });
});
