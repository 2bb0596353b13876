/**
 * `weather.get_forecasts`, a response-only service (SupportsResponse.ONLY): HA refuses it without
 * `return_response`, and a forecast type the entity does not support is a ServiceValidationError. The forecast is
 * derived from the entity's current conditions.
 */

import { isoFromEpoch } from "../core/time.ts";
import { serviceValidationError } from "../protocol/errors.ts";
import { required, v } from "../protocol/schema.ts";
import { type EntityCall, entityService, featuresOf, type ServiceRuntime, type ServiceSpec } from "./types.ts";

/** `WeatherEntityFeature`. */
export const WeatherFeature = { FORECAST_DAILY: 1, FORECAST_HOURLY: 2, FORECAST_TWICE_DAILY: 4 } as const;

const CONDITIONS = ["sunny", "partlycloudy", "cloudy", "rainy", "partlycloudy", "sunny", "cloudy"];

function forecast(call: EntityCall, rt: ServiceRuntime): Record<string, unknown> {
  const type = call.data.type as "daily" | "hourly" | "twice_daily";
  const flag = {
    daily: WeatherFeature.FORECAST_DAILY,
    hourly: WeatherFeature.FORECAST_HOURLY,
    twice_daily: WeatherFeature.FORECAST_TWICE_DAILY,
  }[type];
  if (!(featuresOf(call.state) & flag)) {
    throw serviceValidationError(
      `Weather entity does not support '${type}' forecast`,
      "forecast_not_supported",
      { forecast_type: type },
      "weather",
    );
  }
  const base = typeof call.state.attributes.temperature === "number" ? call.state.attributes.temperature : 15;
  const stepHours = type === "hourly" ? 1 : type === "daily" ? 24 : 12;
  const count = type === "hourly" ? 24 : type === "daily" ? 7 : 14;
  const start = Math.ceil(rt.clock.now() / 3600) * 3600;
  const items = Array.from({ length: count }, (_, index) => {
    const swing = Math.round(Math.sin(index / 2) * 30) / 10;
    const item: Record<string, unknown> = {
      condition: CONDITIONS[index % CONDITIONS.length],
      datetime: isoFromEpoch(start + index * stepHours * 3600),
      wind_bearing: (200 + index * 15) % 360,
      temperature: Math.round((base + swing) * 10) / 10,
      wind_speed: Math.round((12 + index) * 10) / 10,
      precipitation: index % 3 === 0 ? 0.4 : 0,
      humidity: 70 - (index % 5) * 3,
    };
    if (type !== "hourly") item.templow = Math.round((base + swing - 6) * 10) / 10;
    if (type === "twice_daily") item.is_daytime = index % 2 === 0;
    return item;
  });
  return { forecast: items };
}

export function weatherServices(): ServiceSpec[] {
  const F = WeatherFeature;
  return [
    entityService("weather", "get_forecasts", { type: required(v.oneOf(["daily", "hourly", "twice_daily"])) }, forecast, {
      requiredFeatures: [F.FORECAST_DAILY, F.FORECAST_HOURLY, F.FORECAST_TWICE_DAILY],
      response: "only",
    }),
  ];
}
