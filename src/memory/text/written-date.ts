/**
 * @module memory/text/written-date
 * The first calendar date written out in a line: ISO (`2027-01-14`, also the date of `2027-01-14T10:00`),
 * Chinese (「2027年1月14日」) or English with the month's name (`January 14, 2027`, `14 Jan 2027`),
 * as `YYYY-MM-DD`; null when there is none or it is not a real day (`2027-02-30`). Pure; each pattern
 * is anchored on digits or a month name, with no nested quantifier.
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;

const ISO = /(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?!\d)/;
const ZH = /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]/;
const EN_MDY = new RegExp(String.raw`\b${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, "i");
const EN_DMY = new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH}\s+(\d{4})\b`, "i");

function day(year: number, month: number, date: number): string | null {
  if (month < 1 || month > 12 || date < 1 || date > 31) return null;
  const t = new Date(Date.UTC(year, month - 1, date));
  if (t.getUTCMonth() !== month - 1) return null;
  return t.toISOString().slice(0, 10);
}

const monthOf = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

/** Every date the line writes, with where it starts; the caller takes the first. */
function candidates(line: string): { at: number; date: string | null }[] {
  const out: { at: number; date: string | null }[] = [];
  const iso = ISO.exec(line);
  if (iso) out.push({ at: iso.index, date: day(+iso[1], +iso[2], +iso[3]) });
  const zh = ZH.exec(line);
  if (zh) out.push({ at: zh.index, date: day(+zh[1], +zh[2], +zh[3]) });
  const mdy = EN_MDY.exec(line);
  if (mdy) out.push({ at: mdy.index, date: day(+mdy[3], monthOf(mdy[1]), +mdy[2]) });
  const dmy = EN_DMY.exec(line);
  if (dmy) out.push({ at: dmy.index, date: day(+dmy[3], monthOf(dmy[2]), +dmy[1]) });
  return out;
}

/** The first real calendar date written in `line` (YYYY-MM-DD), or null. */
export function writtenDate(line: string): string | null {
  const found = candidates(line)
    .filter((c) => c.date !== null)
    .sort((a, b) => a.at - b.at);
  return found[0]?.date ?? null;
}
