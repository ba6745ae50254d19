/**
 * @module test/unit/time-relations-config
 * The two settings of dates in saved text and relation words in recall: TIME_ZONE (an IANA zone, UTC by default,
 * refused naming the setting and the rule) and RECALL_RELATIONS (on by default, apart from
 * RECALL_ENTITIES, which stays off).
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";

const load = (vars: Record<string, string>) => loadConfig({ ...vars });

describe("TIME_ZONE and RECALL_RELATIONS", () => {
  it("default to UTC and on, with the entity channel still off", () => {
    const config = load({});
    expect(config.TIME_ZONE).toBe("UTC");
    expect(config.RECALL_RELATIONS).toBe("on");
    expect(config.RECALL_ENTITIES).toBe("off");
  });

  it("take an IANA zone and off", () => {
    const config = load({ TIME_ZONE: "Asia/Shanghai", RECALL_RELATIONS: "off" });
    expect(config.TIME_ZONE).toBe("Asia/Shanghai");
    expect(config.RECALL_RELATIONS).toBe("off");
  });

  it("refuse a zone that is not one, naming the setting and the rule", () => {
    expect(() => load({ TIME_ZONE: "Mars/Olympus" })).toThrow(/TIME_ZONE: must be an IANA time zone/);
    expect(() => load({ RECALL_RELATIONS: "yes" })).toThrow(/RECALL_RELATIONS/);
  });
});
