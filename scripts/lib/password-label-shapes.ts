/**
 * @module scripts/lib/password-label-shapes
 * Hostile text for redaction's password rules: Chinese labels (`密码：`, `密码是`, `口令：“`) packed so
 * densely that every label opens a value scan of up to 200 characters, labels that each have a value
 * (each asks the lookalike checks), runs of marks every value's end reads, and an ordinary Chinese
 * transcript of the same size to compare with. Used by `npm run bench:redos` (the ratio) and by
 * `npm run stress`'s hostile inputs. Imports nothing.
 */

const fill = (unit: string, chars: number): string => unit.repeat(Math.max(1, Math.floor(chars / unit.length)));

/** Each shape at about `chars` characters. */
export const PASSWORD_LABEL_SHAPES: Record<string, (chars: number) => string> = {
  '"密码：" repeated': (c) => fill("密码：", c),
  '"密码是" repeated': (c) => fill("密码是", c),
  '"口令：“" repeated (a quote never closed)': (c) => fill("口令：“", c),
  '"密码：x" + "口令=" repeated': (c) => fill("密码：x口令=", c),
  '"用户：我的密码：" lines without a value end': (c) => fill("用户：我的密码：abc 密码：", c),
  '"密码：密码是" repeated (both kinds of label)': (c) => fill("密码：密码是", c),
  '"密码：x 密码是y " repeated (every label a value)': (c) => fill("密码：x 密码是y ", c),
  '"密码：a" + "!"×196 repeated (marks every value reads)': (c) => fill(`密码：a${"!".repeat(196)}`, c),
  '"密码是a" + ")"×196 repeated (closing marks)': (c) => fill(`密码是a${")".repeat(196)}`, c),
  '"password: x" + "!"×196 repeated': (c) => fill(`password: x${"!".repeat(196)}`, c),
  '"password is " repeated': (c) => fill("password is ", c),
};

/** An ordinary Chinese conversation of about `chars` characters, with a real password now and then. */
export function ordinaryZhTranscript(chars: number): string {
  const turns = [
    "用户：我今天下午去了公园散步，天气很好，看到很多人在放风筝。",
    "助手：听起来很惬意！你经常去那个公园吗？",
    "用户：差不多每个周末都去，离我家只有十分钟。对了，我家无线网的密码：sunflower2024，帮我记一下。",
    "助手：好的，我记住了。还有什么需要帮忙的吗？",
    "用户：下周三我要去上海出差，记得提醒我带充电器和护照。",
  ];
  return fill(`${turns.join("\n")}\n`, chars);
}
