/**
 * @module memory/entities/gazetteer
 * Which names are places, from data packages rather than rules: the countries of ISO 3166-1 in
 * English and Chinese (`i18n-iso-countries`, MIT), the world's cities of `city-timezones` (MIT, 7,329
 * cities from Simple Maps' basic world cities, in their own and their ASCII spelling; their names only,
 * written to gazetteer-cities.json by `npm run gazetteer`, scripts/build-gazetteer.ts), and
 * China's provinces and prefecture-level cities (`china-area-data`, MIT, GB/T 2260), each with and
 * without its administrative suffix (浙江省 / 浙江, 杭州市 / 杭州, 广西壮族自治区 / 广西). The countries
 * and Chinese names (about a thousand) are built once, on first use, into a set and, for Chinese, a
 * first-character index so a scan over text costs one map lookup per character; the cities are
 * searched in their sorted string (sorted-words.ts), never loaded into a set. Pure: the data are JSON
 * modules of the bundle.
 */
import chinaAreas from "china-area-data/data.json";
import countriesEn from "i18n-iso-countries/langs/en.json";
import countriesZh from "i18n-iso-countries/langs/zh.json";
import cities from "./gazetteer-cities.json";
import { inSortedList } from "./sorted-words";

/** China's code for the country in china-area-data: its children are the provinces. */
const CHINA = "86";
/** Suffixes of Chinese administrative names that people drop (浙江省 → 浙江), longest first. */
const ZH_SUFFIXES = ["维吾尔自治区", "壮族自治区", "回族自治区", "特别行政区", "自治区", "地区", "省", "市", "盟"];
/** Chinese place names shorter than this are not matched alone (a single character is a word too often). */
const ZH_MIN = 2;

interface Gazetteer {
  names: Set<string>;
  /** Chinese names by first character, longest first. */
  zhByFirst: Map<string, string[]>;
}

let built: Gazetteer | null = null;

function shortZh(name: string): string | null {
  const suffix = ZH_SUFFIXES.find((s) => name.endsWith(s));
  if (!suffix) return null;
  const short = name.slice(0, name.length - suffix.length);
  return [...short].length >= ZH_MIN ? short : null;
}

function build(): Gazetteer {
  const names = new Set<string>();
  const add = (name: string) => {
    const n = name.normalize("NFKC").trim().toLowerCase();
    if (n.length > 0) names.add(n);
  };
  for (const list of [countriesEn.countries, countriesZh.countries])
    for (const value of Object.values(list)) for (const n of Array.isArray(value) ? value : [value]) add(n);
  const areas = chinaAreas as Record<string, Record<string, string>>;
  const provinces = areas[CHINA] ?? {};
  for (const [code, province] of Object.entries(provinces)) {
    for (const name of [province, ...Object.values(areas[code] ?? {})]) {
      if (name === "市辖区" || name === "县" || name.includes("直辖")) continue;
      add(name);
      const short = shortZh(name);
      if (short) add(short);
    }
  }
  const zhByFirst = new Map<string, string[]>();
  for (const n of names) {
    const chars = [...n];
    if (chars.length < ZH_MIN || !/^\p{Script=Han}+$/u.test(n)) continue;
    zhByFirst.set(chars[0], [...(zhByFirst.get(chars[0]) ?? []), n]);
  }
  for (const list of zhByFirst.values()) list.sort((a, b) => b.length - a.length);
  return { names, zhByFirst };
}

function gazetteer(): Gazetteer {
  if (!built) built = build();
  return built;
}

/** True when `name` is a country, a city or a Chinese province or city the gazetteer lists. */
export function placeName(name: string): boolean {
  const n = name.normalize("NFKC").trim().toLowerCase();
  return gazetteer().names.has(n) || inSortedList(cities, "\n", n);
}

/** The longest Chinese place name starting at character `start` of `chars`, or null. */
export function chinesePlaceAt(chars: readonly string[], start: number): string | null {
  const list = gazetteer().zhByFirst.get(chars[start]);
  if (!list) return null;
  for (const name of list) {
    const len = [...name].length;
    if (start + len <= chars.length && chars.slice(start, start + len).join("") === name) return name;
  }
  return null;
}
