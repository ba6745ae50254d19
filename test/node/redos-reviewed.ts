/**
 * Patterns recheck still calls polynomial (never exponential), reviewed for issue 11 and accepted
 * for now because what they read is capped before they run: rules clauses at CLAUSE_MAX_CHARS
 * (providers/rules/text.ts), memory text at LIMITS.contentMaxChars, queries at their own limit. Each
 * stays a candidate for a rewrite; the ReDoS test fails on any vulnerable pattern not listed here and
 * warns about entries a run reports safe (recheck's polynomial verdicts vary between runs).
 */
export const REVIEWED_POLYNOMIAL: ReadonlySet<string> = new Set([
  // src/memory/text/time-expressions.ts
  "/\\b(?:in|during|since|of|from|before|after|around|through)\\s+((?:19|20)\\d{2})\\b(?!\\s*[-/])/g",
  // src/memory/text/time-expressions.ts
  "/^\\s*,?\\s*\\(?([A-Z]{2,4})\\)?(?=\\W|$)/i",
  // src/memory/write/injection-detector.ts
  "/你现在(?:是(?!不是|否)|扮演|成为|变成|作为)|从现在(?:开始|起)[，,]?\\s*你(?:是|将|要|必须|只能)|扮演(?:一个)?(?:系统|管理员|开发者|超级用户)|(?:进入|开启|启用)(?:开发者|越狱|上帝)模式/",
  // src/memory/write/redact-secrets.ts
  "/(aws[_ ]?secret[_ ]?(?:access[_ ]?)?key[\"']?\\s*(?:[:=]|\\bis\\b)\\s*[\"']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi",
  // src/providers/rules/attributes.ts
  "/(?<![了啦呢的])[了啦呢的]+$/u",
  // src/providers/rules/attributes.ts
  "/(?<!\\s)\\s+(?:now|anymore|these days|nowadays)$/g",
  // src/providers/rules/attributes.ts
  "/\\bi\\s+(?:now\\s+|currently\\s+|still\\s+|actually\\s+)?(?:live|reside)\\s+in\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\b(?:call me|i go by|i'm called|i am called)\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi(?:'ve|\\s+have)?\\s+(?:just\\s+|recently\\s+|finally\\s+)?(?:moved|relocated)\\s+(?:to|into)\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi(?:'m|\\s+am)\\s+(?:now\\s+|currently\\s+)?(?:living|based|staying)\\s+in\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi\\s+(?:now\\s+|currently\\s+|still\\s+|actually\\s+)?work\\s+(?:at|for)\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi(?:'m|\\s+am)\\s+(?:now\\s+|currently\\s+)?(?:working|employed)\\s+(?:at|for|by)\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi\\s+was\\s+born\\s+on\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi(?:'ve|\\s+have)?\\s+(?:just\\s+)?moved\\s+(?:out\\s+of|away\\s+from)\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi\\s+used\\s+to\\s+(?:live|reside)\\s+in\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi\\s+(?:no longer|don't|do not)\\s+work\\s+(?:at|for)\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi\\s+used\\s+to\\s+work\\s+(?:at|for)\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/我的(?:工作|职业)(?:是|为)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我的?生日(?:是|为|在)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我的名字(?:是|叫)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))|我名字叫([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))|我叫(?![了过着他她你它车外])([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我(?:以前|之前|曾经)(?:住在|住于|生活在)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/text.ts
  "/(?<![。！？!?…])[。！？!?…]+[”’」』）)\"']*|(?<!\\.)\\.+[”’」』）)\"']*(?=\\s|$)|\\n+/g",
  // src/providers/rules/text.ts
  "/(?<![。！？!?….])[。！？!?….]+$/g",
  // src/memory/write/redact-secrets.ts
  "/-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\\s\\S]*?(?:-----END \\1PRIVATE KEY-----|$)/g",
  // src/memory/write/redact-secrets.ts
  "/\\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g",
  // src/memory/write/redact-secrets.ts
  "/((?:密码|口令|密碼|pin码|PIN码)\\s*[:=：]\\s*)(\"[^\"\\n]{1,200}\"|'[^'\\n]{1,200}'|“[^”\\n]{1,200}”|「[^」\\n]{1,200}」|[^\\s\"'“「，。；、,;][^\\n,;，；。、]{0,200}?)(?=[.!?。！？]{0,8}[^\\S\\n]{0,8}(?:\\n|$)|[.!?]\\s|[,;，；。、！？])/g",
  // src/memory/write/redact-secrets.ts
  "/((?:密码|口令|密碼|pin码|PIN码)\\s*(?:是|为|為)\\s*)(\"[^\"\\n]{1,200}\"|'[^'\\n]{1,200}'|“[^”\\n]{1,200}”|「[^」\\n]{1,200}」|[^\\s\"'“「，。；、,;]{1,200}?)(?=[.!?。！？,，;；、)）]{0,8}(?:\\s|$)|[，。；、,;])/g",
  // src/providers/rules/attributes.ts
  "/\\bmy\\s+(name|full name|first name|nickname|birthday|birth date|date of birth|dob|job|occupation|profession|employer|company|address|home address|hometown)\\s+(?:is now|has changed to|changed to|is|=|:)\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi\\s+(?:no longer|don't|do not)\\s+(?:live|reside)\\s+in\\s+([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/\\bi(?:'ve|\\s+have)?\\s+(?:just\\s+)?(?:left|quit)\\s+(?:my\\s+job\\s+(?:at|with)\\s+)?([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/我的(?:邮箱|电子邮箱|邮件地址|email|e-mail)(?:地址)?(?:是|为|[:：])\\s*([^\\s,;，；]+@[^\\s,;，；]+?)(?=[.。]?(?:\\s|$)|[,;，；])/",
  // src/providers/rules/attributes.ts
  "/我(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}(?:不再|不)住在([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}(?:搬离|搬出)了?([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/memory/text/time-expressions.ts
  "/((?:(?:eleven|twelve|three|seven|eight|four|five|nine|one|two|six|ten)|[0-9]+|[0-9]+\\.[0-9]+|half(?:\\s{0,2}an?)?|an?\\b(?:\\s{0,2}few)?|few|several|the|a?\\s{0,2}couple\\s{0,2}(?:of)?))\\s{0,3}((?:quarters|seconds|minutes|quarter|second|minute|months|hours|weeks|month|years|mins|hour|days|week|year|sec|min|hrs|day|mon|mos|qtr|hr|mo|yr|s|m|h|d|w|y))/i",
  // src/memory/text/time-expressions.ts
  "/((?:[1-9][0-9]{0,3}\\s{0,2}(?:BE|AD|BC|BCE|CE)|[1-9][0-9]{3}))(?:\\s*[-.\\/,]?\\s*|\\s+of\\s+)((?:september|february|november|december|january|october|august|march|april|sept\\.|june|july|jan\\.|feb\\.|mar\\.|apr\\.|jun\\.|jul\\.|aug\\.|sep\\.|sept|oct\\.|nov\\.|dec\\.|may|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec))(?=[^\\s\\w]|\\s+[^0-9]|\\s+$|$)/i",
  // src/memory/text/time-expressions.ts
  "/((?:(?:about|around)\\s{0,3})?(?:(?:(?:eleven|twelve|three|seven|eight|four|five|nine|one|two|six|ten)|[0-9]+|[0-9]+\\.[0-9]+|half(?:\\s{0,2}an?)?|an?\\b(?:\\s{0,2}few)?|few|several|the|a?\\s{0,2}couple\\s{0,2}(?:of)?))\\s{0,3}(?:(?:quarters|seconds|minutes|quarter|second|minute|months|hours|weeks|month|years|mins|hour|days|week|year|sec|min|hrs|day|mon|mos|qtr|hr|mo|yr|s|m|h|d|w|y))(?:\\s{0,5},?(?:\\s*and)?\\s{0,5}(?:(?:(?:eleven|twelve|three|seven|eight|four|five|nine|one|two|six|ten)|[0-9]+|[0-9]+\\.[0-9]+|half(?:\\s{0,2}an?)?|an?\\b(?:\\s{0,2}few)?|few|several|the|a?\\s{0,2}couple\\s{0,2}(?:of)?))\\s{0,3}(?:(?:quarters|seconds|minutes|quarter|second|minute|months|hours|weeks|month|years|mins|hour|days|week|year|sec|min|hrs|day|mon|mos|qtr|hr|mo|yr|s|m|h|d|w|y))){0,10})\\s{0,5}(?:ago|before|earlier)(?=\\W|$)/i",
  // src/memory/text/time-expressions.ts
  "/((?:(?:about|around)\\s{0,3})?(?:(?:(?:eleven|twelve|three|seven|eight|four|five|nine|one|two|six|ten)|[0-9]+|[0-9]+\\.[0-9]+|half(?:\\s{0,2}an?)?|an?\\b(?:\\s{0,2}few)?|few|several|the|a?\\s{0,2}couple\\s{0,2}(?:of)?))\\s{0,3}(?:(?:quarters|seconds|minutes|quarter|second|minute|months|hours|weeks|month|years|hour|days|week|year|day))(?:\\s{0,5},?(?:\\s*and)?\\s{0,5}(?:(?:(?:eleven|twelve|three|seven|eight|four|five|nine|one|two|six|ten)|[0-9]+|[0-9]+\\.[0-9]+|half(?:\\s{0,2}an?)?|an?\\b(?:\\s{0,2}few)?|few|several|the|a?\\s{0,2}couple\\s{0,2}(?:of)?))\\s{0,3}(?:(?:quarters|seconds|minutes|quarter|second|minute|months|hours|weeks|month|years|hour|days|week|year|day))){0,10})\\s{0,5}(?:ago|before|earlier)(?=\\W|$)/i",
  // src/memory/text/time-expressions.ts
  "/((?:(?:about|around)\\s{0,3})?(?:(?:(?:eleven|twelve|three|seven|eight|four|five|nine|one|two|six|ten)|[0-9]+|[0-9]+\\.[0-9]+|half(?:\\s{0,2}an?)?|an?\\b(?:\\s{0,2}few)?|few|several|the|a?\\s{0,2}couple\\s{0,2}(?:of)?))\\s{0,3}(?:(?:quarters|seconds|minutes|quarter|second|minute|months|hours|weeks|month|years|hour|days|week|year|day))(?:\\s{0,5},?(?:\\s*and)?\\s{0,5}(?:(?:(?:eleven|twelve|three|seven|eight|four|five|nine|one|two|six|ten)|[0-9]+|[0-9]+\\.[0-9]+|half(?:\\s{0,2}an?)?|an?\\b(?:\\s{0,2}few)?|few|several|the|a?\\s{0,2}couple\\s{0,2}(?:of)?))\\s{0,3}(?:(?:quarters|seconds|minutes|quarter|second|minute|months|hours|weeks|month|years|hour|days|week|year|day))){0,10})\\s{0,5}(later|after|from now)(?=\\W|$)/i",
  // src/memory/text/time-expressions.ts
  "/(this|last|past|next|after|\\+|-)\\s*((?:(?:about|around)\\s{0,3})?(?:(?:(?:eleven|twelve|three|seven|eight|four|five|nine|one|two|six|ten)|[0-9]+|[0-9]+\\.[0-9]+|half(?:\\s{0,2}an?)?|an?\\b(?:\\s{0,2}few)?|few|several|the|a?\\s{0,2}couple\\s{0,2}(?:of)?))\\s{0,3}(?:(?:quarters|seconds|minutes|quarter|second|minute|months|hours|weeks|month|years|mins|hour|days|week|year|sec|min|hrs|day|mon|mos|qtr|hr|mo|yr|s|m|h|d|w|y))(?:\\s{0,5},?(?:\\s*and)?\\s{0,5}(?:(?:(?:eleven|twelve|three|seven|eight|four|five|nine|one|two|six|ten)|[0-9]+|[0-9]+\\.[0-9]+|half(?:\\s{0,2}an?)?|an?\\b(?:\\s{0,2}few)?|few|several|the|a?\\s{0,2}couple\\s{0,2}(?:of)?))\\s{0,3}(?:(?:quarters|seconds|minutes|quarter|second|minute|months|hours|weeks|month|years|mins|hour|days|week|year|sec|min|hrs|day|mon|mos|qtr|hr|mo|yr|s|m|h|d|w|y))){0,10})(?=\\W|$)/i",
  // src/memory/write/redact-secrets.ts
  "/(\\b(?:password|passwd|passphrase|passcode|pwd|pin\\s*code|pin\\s*number)\\b(?:\\s+(?:for|to|of|on|at)\\s+[^\\s:=：]+)?\\s*[:=：]\\s*)(\"[^\"\\n]{1,200}\"|'[^'\\n]{1,200}'|“[^”\\n]{1,200}”|「[^」\\n]{1,200}」|[^\\s\"'“「，。；、,;][^\\n,;，；。、]{0,200}?)(?=[.!?。！？]{0,8}[^\\S\\n]{0,8}(?:\\n|$)|[.!?]\\s|[,;，；。、！？])/gi",
  // src/providers/rules/attributes.ts
  "/\\bi\\s+(?:now\\s+|currently\\s+|still\\s+|actually\\s+)?work\\s+as\\s+(?:an?\\s+)?([^,;.!?]+?)(?=\\s*(?:[,;.!?]|\\s(?:and|but|so|because|since|while|though|although|which|who)\\s|$))/",
  // src/providers/rules/attributes.ts
  "/我(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}(?:住在|住于|定居在|定居于|生活在|搬到了|搬到|搬去了|搬去|搬家到了?)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
  // src/providers/rules/attributes.ts
  "/我(?:现在|目前|已经|刚刚|刚|最近|一直|还){0,3}(?:就职于|任职于|供职于)([^，。！？,;；!?\\s]{1,40}?)(?=(?:了|啦|呢)?(?:[，。！？,;；!?\\s]|$))/",
]);
