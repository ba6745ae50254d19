/**
 * @module memory/entities/zh-names
 * Whether a run of Han characters reads as a Chinese person's name, for the patterns that have no
 * word like 叫 to say a name follows (「我上司干哪一行」 names nobody; 「我领导是小北」 does): a common
 * family name first (王磊, 欧阳娜娜), a familiar prefix (小北, 老周, 阿峰, 大刘), or a doubled
 * nickname (欣欣). Data and a constant-time check.
 */

/** The most common single-character family names (about 85% of people in China). */
const SURNAMES = new Set(
  (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任" +
    "沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔" +
    "向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌" +
    "毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦" +
    "麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩" +
    "明佘池乐匡钮鞠丰"
  ).split(""),
);
const COMPOUND_SURNAMES = ["欧阳", "司马", "上官", "诸葛", "东方", "皇甫", "令狐", "慕容", "司徒", "夏侯"];
/** 小北, 阿峰 (any second character); 老周, 大刘 (a family name after): how friends, colleagues and bosses are called. */
const PREFIXES = new Set("小阿".split(""));
const SURNAME_PREFIXES = new Set("老大".split(""));
/** Two-character words with a name's prefix that are not names. */
const NOT_NAMES = new Set(["小孩", "小学", "小姐", "小时", "小区", "小说", "阿姨"]);
/** Last characters of a role or trade (程序员, 司机, 商人, 高手): 「我哥是程序员」 names a job, not a person. */
const ROLE_ENDINGS = new Set("员师生手机人家长工士者官夫医".split(""));

/** Whether `name` (two to four Han characters) reads as a person's name or nickname. */
export function looksLikeChineseName(name: string): boolean {
  const chars = [...name];
  if (chars.length < 2 || chars.length > 4) return false;
  if (chars.length === 2 && chars[0] === chars[1]) return true;
  if (COMPOUND_SURNAMES.some((s) => name.startsWith(s))) return chars.length >= 3;
  if (chars.length === 4) return false;
  if (chars.length === 2 && PREFIXES.has(chars[0])) return !NOT_NAMES.has(name);
  if (chars.length === 2 && SURNAME_PREFIXES.has(chars[0])) return SURNAMES.has(chars[1]);
  return SURNAMES.has(chars[0]);
}

/** After 是 a role is as likely as a name (「我哥是程序员」): a name, and not ending like a trade. */
export function namesPersonAfterIs(name: string): boolean {
  return looksLikeChineseName(name) && !ROLE_ENDINGS.has([...name].at(-1) ?? "");
}
