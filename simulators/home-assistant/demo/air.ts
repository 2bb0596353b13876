/** Room climate sensors, indoor and outdoor air quality. */
import type { HomeBuilder } from "../home-builder.ts";
import { sensorAttrs } from "./attributes.ts";

export function addAirSensors(home: HomeBuilder): void {
  const room = (
    key: string,
    name: string,
    area: string,
    temperature: string,
    humidity: string,
    extra: () => void = () => undefined,
  ) => {
    home.device({
      key,
      name,
      manufacturer: "Aqara",
      model: "Temperature and Humidity Sensor T1",
      model_id: "lumi.sensor_ht.agl02",
      integration: "zha",
      area,
      via: "zigbee_coordinator",
      connection: "zigbee",
    });
    const prefix = `sensor.${key}`;
    home.entity({
      entity_id: `${prefix}_temperature`,
      device: key,
      name: "Temperature",
      state: temperature,
      changedAgo: 3,
      deviceClass: "temperature",
      attributes: sensorAttrs("temperature", "°C"),
    });
    home.entity({
      entity_id: `${prefix}_humidity`,
      device: key,
      name: "Humidity",
      state: humidity,
      changedAgo: 4,
      deviceClass: "humidity",
      attributes: sensorAttrs("humidity", "%"),
    });
    home.entity({
      entity_id: `${prefix}_battery`,
      device: key,
      name: "Battery",
      category: "diagnostic",
      state: "91",
      deviceClass: "battery",
      attributes: sensorAttrs("battery", "%"),
    });
    extra();
  };
  room("living_room_sensor", "Living Room Sensor", "living_room", "21.6", "44.2", () =>
    home.entity({
      entity_id: "sensor.living_room_sensor_pressure",
      device: "living_room_sensor",
      name: "Pressure",
      state: "1013.4",
      deviceClass: "pressure",
      attributes: sensorAttrs("pressure", "hPa"),
    }),
  );
  room("bedroom_sensor", "Bedroom Sensor", "bedroom", "18.9", "51.0");
  room("bathroom_sensor", "Bathroom Sensor", "bathroom", "22.8", "68.5");
  home.device({
    key: "garage_sensor",
    name: "Garage Sensor",
    manufacturer: "Aqara",
    model: "Temperature and Humidity Sensor T1",
    model_id: "lumi.sensor_ht.agl02",
    integration: "zha",
    area: "garage",
    via: "zigbee_coordinator",
    connection: "zigbee",
  });
  home.entity({
    entity_id: "sensor.garage_sensor_temperature",
    device: "garage_sensor",
    name: "Temperature",
    state: "unavailable",
    changedAgo: 1440,
    deviceClass: "temperature",
    attributes: { state_class: "measurement", unit_of_measurement: "°C", device_class: "temperature" },
  });

  home.device({
    key: "airthings",
    name: "Office Air Quality",
    manufacturer: "Airthings",
    model: "View Plus",
    integration: "airthings",
    area: "office",
    labels: ["work"],
  });
  const air = (suffix: string, name: string, state: string, deviceClass: string, unit: string) =>
    home.entity({
      entity_id: `sensor.office_air_quality_${suffix}`,
      device: "airthings",
      name,
      state,
      deviceClass,
      attributes: sensorAttrs(deviceClass, unit),
    });
  air("carbon_dioxide", "Carbon dioxide", "812", "carbon_dioxide", "ppm");
  air("pm2_5", "PM2.5", "4", "pm25", "µg/m³");
  air("pm10", "PM10", "7", "pm10", "µg/m³");
  air("volatile_organic_compounds", "VOC", "312", "volatile_organic_compounds", "µg/m³");
  air("temperature", "Temperature", "22.4", "temperature", "°C");
  air("humidity", "Humidity", "40", "humidity", "%");
  air("radon", "Radon", "31", "radon", "Bq/m³");
  home.entity({
    entity_id: "sensor.office_air_quality_voc_index",
    device: "airthings",
    name: "VOC index",
    disabledBy: "user",
    state: "110",
    deviceClass: "volatile_organic_compounds",
  });

  home.device({
    key: "outdoor_air",
    name: "Outdoor Air Quality",
    manufacturer: "World Air Quality Index Project",
    model: "Amsterdam-Vondelpark",
    integration: "waqi",
    entry_type: "service",
  });
  const outdoor = (suffix: string, name: string, state: string, deviceClass: string, unit: string | null) =>
    home.entity({
      entity_id: `sensor.outdoor_air_quality_${suffix}`,
      device: "outdoor_air",
      name,
      state,
      deviceClass,
      attributes: sensorAttrs(deviceClass, unit),
    });
  outdoor("air_quality_index", "Air quality index", "38", "aqi", null);
  outdoor("carbon_monoxide", "Carbon monoxide", "0.2", "carbon_monoxide", "ppm");
  outdoor("nitrogen_dioxide", "Nitrogen dioxide", "17.4", "nitrogen_dioxide", "µg/m³");
  outdoor("ozone", "Ozone", "41.0", "ozone", "µg/m³");
}
