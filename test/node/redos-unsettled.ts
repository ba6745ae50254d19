/**
 * What is left of issue 11, finding 5: patterns of src/ that recheck has not settled with every time
 * limit off (each ran 20 to 40 minutes on the shared VM on 1 December 2026 without an answer: large Han
 * character classes, bounded repeats and lookaheads keep its fuzzer busy), and that its time-limited,
 * seeded check calls polynomial. Each reads a bounded run per start (`{1,40}?`, `{1,20}?`, `{1,30}`),
 * but none is proven linear: they are to be rewritten (a linear prefix plus a scan of the value, as
 * password-value.ts does). redos.test.ts reports their time-limited verdicts and fails on every other
 * pattern that is not called safe; a pattern leaves this list with a recorded safe verdict or a rewrite.
 */
export const UNSETTLED: ReadonlySet<string> = new Set([
  // src/providers/rules/attributes.ts
  "/我的(?:邮箱|电子邮箱|邮件地址|email|e-mail)(?:地址)?(?:是|为|[:：])\\s*((?:[^\\s,;，；.。]|[.。](?!\\s|$))(?:[^\\s,;，；@.。]|[.。](?!\\s|$)){0,63}@[^\\s,;，；](?:[^\\s,;，；.。]|[.。](?!\\s|$)){0,254})(?![^\\s,;，；.。]|[.。](?!\\s|$))/",
  // src/providers/rules/attributes.ts
  "/我(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}(?:住在|住于|定居在|定居于|生活在|搬到了|搬到|搬去了|搬去|搬家到了?)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}(?:就职于|任职于|供职于)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我的?生日(?:是|为|在)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我的名字(?:是|叫)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))|我名字叫([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))|我叫(?![了过着他她你它车外])([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}(?:不再|不)住在([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}(?:搬离|搬出)了?([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}(?:不再|不)在([^，。！？,;；!?\\s]{1,20}?)(?:工作|上班)/",
  // src/providers/rules/attributes.ts
  "/我(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}从([^，。！？,;；!?\\s]{1,20}?)离职/",
  // src/providers/rules/attributes.ts
  "/我(?:以前|之前|曾经)(?:住在|住于|生活在)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/fact-signals.ts
  "/《[^》]{1,30}》|[\\u4e00-\\u9fff]{1,8}(?:公园|大学|公司|医院|书店|餐厅|咖啡馆|市|省|路|山|湖)/",
]);
