/** addressBucket: what a per-client limit counts — IPv4 as written, IPv6 by its /64, mapped IPv4 as IPv4. */
import { describe, expect, it } from "vitest";
import { addressBucket } from "../../src/http/client-address";

describe("addressBucket", () => {
  it("counts an IPv6 address by its /64, however it is written", () => {
    for (const ip of [
      "2001:db8:1:2::1",
      "2001:0db8:0001:0002:0000:0000:0000:0001",
      "2001:DB8:1:2:aaaa:bbbb:cccc:dddd",
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:db8:1:2::",
      "2001:db8:1:2::1%eth0",
      "2001:db8:1:2:0:0:1.2.3.4",
    ])
      expect(addressBucket(ip), ip).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("fe80::1")).toBe("fe80:0:0:0::/64");
  });

  it("keeps IPv4 as written, and reads an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::ffff:cb00:7107")).toBe("203.0.113.7");
  });

  it("leaves anything else as it is: one bucket each, never an error", () => {
    for (const odd of [
      "local",
      "",
      "1:2:3",
      "2001:db8::1::2",
      "2001:db8:1:2:3:4:5:6:7",
      "g::1",
      "12345::1",
      "1.2.3.4.5",
    ])
      expect(addressBucket(odd), odd).toBe(odd.trim());
  });
});
