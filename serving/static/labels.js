// Every word the problem page writes, in English and in Chinese: page.js and own_input.js take
// their text from LABELS[pageLang()] only, so a language is complete or a test says what it lacks
// (tests/test_page_labels.py). What the server writes (hints, mismatch notes, verdict messages)
// comes in the language the page asks for with `lang`.
"use strict";

const LABELS = {
  en: {run: "Run", submit: "Submit", hint: "Hint", cancel: "Cancel", own: "my own input", result: "Result",
       history: "History", editorial: "Editorial", stopped: "server stopped: this judging ended with it",
       reset: "Reset to sample", use: "use this test as input", starter: "the starter", newFile: "a new starter file",
       editing: "editing…", saved: (bytes) => `saved (${bytes} bytes)`,
       limits: (l) => `${l.ms} ms CPU per test · ${l.mib} MiB · tolerance abs ${l.abs} or rel ${l.rel}`,
       titles: {AC: "Accepted", WA: "Wrong Answer", TLE: "Time Limit Exceeded", MLE: "Memory Limit Exceeded",
                OLE: "Output Limit Exceeded", RE: "Runtime Error", CE: "Compilation Error", JE: "Judge Error"},
       onTest: (name) => ` on test ${name}`, on: (own) => ` on ${own ? "your input" : "the sample"}`,
       passed: (n, total) => `${n}/${total} tests passed`, slowest: (ms) => ` · slowest ${ms} ms`,
       running: (own) => `running on ${own ? "your input" : "the sample"}`,
       note: (hints) => `Run tries your code on the sample (or your own input); Submit judges every test` +
         `${hints ? "; Hint explains a wrong answer" : ""}.`,
       hidden: "a hidden test: a contest shows its verdict and number only",
       ownNote: "one row per line; # [i] starts block i of a 3-D array; the sizes are checked on Run",
       kinds: {float_array: "float array", int_array: "integer array", float: "real number", int: "integer"},
       fieldLine: (name, line, what) => `${name}, line ${line}: ${what}`,
       notNumber: (t) => `“${t}” is not a number`, notWhole: (t) => `“${t}” is not a whole number`,
       brackets: "a row is [a, b, c] on one line", oneNumber: "one number", oneLine: "a vector is one line [a, b, c]",
       ragged: (n, line, m) => `${n} numbers, but line ${line} has ${m}`, noHeader: "a matrix has no # headers",
       header: (depth) => `a block of rows starts with its header # ${"[0]".repeat(depth)}`,
       order: (next) => `the header here is ${next.join(" or ")}`,
       // the page around the editor
       keys: "Ctrl-Enter: Run · Ctrl-Shift-Enter: Submit", loading: "loading the statement…", retry: "Retry",
       reload: "Reload", overwrite: "Overwrite with this tab's text", create: (where) => `Create ${where}`,
       // the connection
       noAnswer: "no answer from the server",
       lost: (practice) => "Lost the connection to the server: it stopped, or the network is down. Your text stays " +
         `in this tab; ${practice ? "start the server again (make serve)" : "when the class's server is back"}, then Retry.`,
       trying: "trying again…",
       still: (practice) => `Still no answer from the server. ${practice ? "Start it again (make serve), then " : ""}Retry.`,
       sessionEnded: (practice) => practice
         ? "The server answers, but this tab's session ended (it restarted, or has another token): open the URL it printed."
         : "The server answers, but this tab's session ended: sign in again (reload the page).",
       answers: (status) => `The server answers ${status}: Retry in a moment.`,
       lostJob: "The judging was lost with the server (it restarted): run it again.",
       closing: "The server is shutting down: every judging was stopped. Start it again (make serve), then Retry.",
       tooMany: (message) => message,
       // saving and conflicts
       changed: (practice) => (practice ? "changed on disk" : "saved in another tab"),
       notSavedSee: (changed) => `not saved: ${changed} (see above)`, notSaved: (why) => `not saved: ${why}`,
       codeWas: (changed) => `the code was ${changed}`,
       resolveFirst: (changed) => `the code was ${changed}: reload it or overwrite it first`,
       deleted: (where) => `${where} was deleted on disk since this tab loaded it.`,
       conflict: (where, changed, practice) => `${where} ${changed} since this tab loaded it ` +
         `(${practice ? "another tab, or an editor" : "this code is not saved"}): reload it, or overwrite it with this tab's text.`,
       reloaded: (practice) => (practice ? "reloaded from disk" : "reloaded"), reloadedAs: (changed) => `reloaded: ${changed}`,
       absent: "does not exist yet",
       // judging
       states: {queued: "queued: waiting for a judge", judging: "judging"},
       forHint: (level) => `judging for a hint (level ${level})`, judged: (n, total) => `${n}/${total} tests judged`,
       cancelled: "cancelled: nothing is left running", lostRestart: "The judging was lost (the server restarted): run it again.",
       notJudged: (why) => `not judged: ${why}`, notRun: (why) => `not run: ${why}`,
       speed: (test, yours, ref, ratio) => `Your slowest test, ${test}, took ${yours} of CPU time; ` +
         `the reference takes ${ref} there (${ratio}x).`,
       // the tests' table, a mismatch and the console
       columns: ["#", "test", "verdict", "time", "memory", ""], printedBytes: (n) => `printed ${n} bytes`,
       expectedShape: "expected shape", yourShape: "your shape", firstMismatch: "first mismatch", expected: "expected",
       position: (p) => p, got: "got", error: "error", allowed: "allowed", differing: "differing", ofElements: (d, n) => `${d} of ${n} elements`,
       console: "stdout / stderr", shortened: (n) => ` (${n} bytes in all, shortened)`, nothing: "(nothing printed)",
       traceback: "traceback (your code only)", stdout: "stdout",
       resumed: "(it was running when this page loaded)", noOutput: "(no output)", yours: "yours", reference: "reference",
       stepRight: (t) => `step t = ${t}: the steps before it were right`,
       judgedAgain: (why) => `judged again, the machine being busy: ${why}`, inputSizes: (s) => `input: ${s}`,
       // hints
       hintTitle: (level) => `Hint (level ${level})`, showBug: "Show the bug (level 2)",
       goesWrong: (nonfinite, step) => `${nonfinite ? "Your finite values are those of a bundled mistake: your" : "Your"} ` +
         `output goes wrong at <b>${step}</b>.`,
       theBug: (bugs) => `The bug: ${bugs.join("; or ")}`,
       ownBug: "No bundled mistake gives your output on this test: the bug is one of your own. Compare your output " +
         "with the reference's: “use this test as input” on the failing test, then Run.",
       noHint: "no hint",
       // history
       noJudgings: (slug) => `no judgings of ${slug} yet`, historyColumns: ["when", "kind", "verdict", "passed", "slowest", ""],
       kindNames: {run: "run", submit: "submit", hint: "hint"}, someTests: " (some tests)", code: "code",
       notKept: "The code of this judging was not kept (an older history).",
       judgingOf: (kind, when) => `${kind} of ${when}: `, slowestMs: (ms) => `slowest ${ms}`,
       itsCode: "its code", diffAgainst: (practice) => `diff against ${practice ? "the current file" : "your code now"}`,
       same: (practice) => `the same as ${practice ? "the file" : "your code"} now`,
       // the editorial
       anyway: "show it anyway", idea: "The idea", time: "time", memory: "memory", routes: null},
  zh: {run: "运行", submit: "提交", hint: "提示", cancel: "取消", own: "自定义输入", result: "结果",
       history: "历史", editorial: "题解", stopped: "服务器已停止：这次评测随之结束",
       reset: "恢复样例", use: "用此测试作为输入", starter: "初始代码", newFile: "新建的初始代码文件",
       editing: "编辑中…", saved: (bytes) => `已保存（${bytes} 字节）`,
       limits: (l) => `每个测试 CPU ${l.ms} ms · ${l.mib} MiB · 容差：绝对 ${l.abs} 或相对 ${l.rel}`,
       titles: {AC: "通过", WA: "答案错误", TLE: "超出时间限制", MLE: "超出内存限制", OLE: "输出超出限制",
                RE: "运行错误", CE: "编译错误", JE: "评测错误"},
       onTest: (name) => ` 测试点 ${name}`, on: (own) => ` ${own ? "自定义输入" : "样例"}`,
       passed: (n, total) => `通过 ${n}/${total} 个测试点`, slowest: (ms) => ` · 最慢 ${ms} ms`,
       running: (own) => `正在${own ? "用自定义输入" : "在样例上"}运行`,
       note: (hints) => `运行：在样例（或自定义输入）上试运行你的代码；提交：评测全部测试` +
         `${hints ? "；提示：解释答案错在哪里" : ""}。`,
       hidden: "隐藏测试点：比赛中只显示结果和编号",
       ownNote: "矩阵每行占一行；# [i] 开始三维数组的第 i 块；运行时检查各维大小",
       kinds: {float_array: "浮点数组", int_array: "整数数组", float: "实数", int: "整数"},
       fieldLine: (name, line, what) => `${name} 第 ${line} 行：${what}`,
       notNumber: (t) => `“${t}” 不是数字`, notWhole: (t) => `“${t}” 不是整数`,
       brackets: "一行写作 [a, b, c]", oneNumber: "应为一个数", oneLine: "向量只占一行 [a, b, c]",
       ragged: (n, line, m) => `有 ${n} 个数，但第 ${line} 行有 ${m} 个`, noHeader: "矩阵没有 # 标题行",
       header: (depth) => `每块行以标题行 # ${"[0]".repeat(depth)} 开始`,
       order: (next) => `此处的标题行应为 ${next.join(" 或 ")}`,
       keys: "Ctrl-Enter：运行 · Ctrl-Shift-Enter：提交", loading: "正在载入题面…", retry: "重试",
       reload: "重新载入", overwrite: "用本标签页的代码覆盖", create: (where) => `创建 ${where}`,
       noAnswer: "服务器没有应答",
       lost: (practice) => "与服务器的连接已断开：服务器已停止，或网络中断。你的代码仍留在本标签页；" +
         `${practice ? "请重新启动服务器（make serve）" : "等课堂服务器恢复后"}，再点“重试”。`,
       trying: "正在重试…",
       still: (practice) => `服务器仍无应答。${practice ? "请重新启动它（make serve），然后" : ""}点“重试”。`,
       sessionEnded: (practice) => practice
         ? "服务器有应答，但本标签页的会话已结束（服务器重启过，或令牌已变）：请打开它打印的网址。"
         : "服务器有应答，但本标签页的会话已结束：请重新登录（刷新页面）。",
       answers: (status) => `服务器返回 ${status}：请稍后重试。`,
       lostJob: "这次评测随服务器一起丢失了（服务器重启过）：请重新运行。",
       closing: "服务器正在关闭：所有评测都已停止。请重新启动它（make serve），然后点“重试”。",
       tooMany: () => "请求过于频繁：请稍等片刻再试。",
       changed: (practice) => (practice ? "已在磁盘上被修改" : "已在另一个标签页中保存"),
       notSavedSee: (changed) => `未保存：代码${changed}（见上方）`, notSaved: (why) => `未保存：${why}`,
       codeWas: (changed) => `代码${changed}`,
       resolveFirst: (changed) => `代码${changed}：请先重新载入或覆盖`,
       deleted: (where) => `本标签页载入 ${where} 之后，它已在磁盘上被删除。`,
       conflict: (where, changed, practice) => `本标签页载入 ${where} 之后，它${changed}` +
         `（${practice ? "另一个标签页或编辑器" : "本页的代码尚未保存"}）：请重新载入，或用本标签页的代码覆盖。`,
       reloaded: (practice) => (practice ? "已从磁盘重新载入" : "已重新载入"), reloadedAs: (changed) => `已重新载入：${changed}`,
       absent: "文件尚不存在",
       states: {queued: "排队中：等待评测机", judging: "评测中"},
       forHint: (level) => `正在评测以给出提示（第 ${level} 级）`, judged: (n, total) => `已评测 ${n}/${total} 个测试点`,
       cancelled: "已取消：没有仍在运行的评测", lostRestart: "这次评测丢失了（服务器重启过）：请重新运行。",
       notJudged: (why) => `未评测：${why}`, notRun: (why) => `未运行：${why}`,
       speed: (test, yours, ref, ratio) => `你最慢的测试点 ${test} 用了 ${yours} CPU 时间；` +
         `参考解在该测试点上用 ${ref}（${ratio} 倍）。`,
       columns: ["#", "测试点", "结果", "时间", "内存", ""], printedBytes: (n) => `输出了 ${n} 字节`,
       expectedShape: "期望形状", yourShape: "你的形状", firstMismatch: "第一处不符", expected: "期望值",
       // the checker's position (grading/checker.py's _position) said in Chinese
       position: (p) => p.replace(/^row (\d+), column (\d+)$/, "第 $1 行第 $2 列").replace(/^element (\[.*\]|\d+)$/, "元素 $1")
         .replace(/^the value$/, "该值"),
       got: "你的值", error: "误差", allowed: "允许", differing: "不符元素", ofElements: (d, n) => `${n} 个元素中 ${d} 个`,
       console: "标准输出 / 标准错误", shortened: (n) => `（共 ${n} 字节，已截短）`, nothing: "（没有输出）",
       traceback: "调用栈（仅你的代码）", stdout: "输出",
       resumed: "（本页载入时它正在运行）", noOutput: "（无输出）", yours: "你的输出", reference: "参考输出",
       stepRight: (t) => `第 t = ${t} 步：此前各步都正确`,
       judgedAgain: (why) => `机器繁忙，已重新评测：${why}`, inputSizes: (s) => `输入：${s}`,
       hintTitle: (level) => `提示（第 ${level} 级）`, showBug: "显示错误所在（第 2 级）",
       goesWrong: (nonfinite, step) => `${nonfinite ? "你的有限值与一个已知错误的一致：" : ""}` +
         `你的输出从<b>${step}</b>开始出错。`,
       theBug: (bugs) => `错误所在：${bugs.join("；或")}`,
       ownBug: "没有哪个已知错误会在这个测试点上给出你的输出：这是你自己的错误。请对比你的输出与参考输出：" +
         "在失败的测试点上点“用此测试作为输入”，然后运行。",
       noHint: "没有提示",
       noJudgings: (slug) => `${slug} 还没有评测记录`, historyColumns: ["时间", "类型", "结果", "通过", "最慢", ""],
       kindNames: {run: "运行", submit: "提交", hint: "提示"}, someTests: "（部分测试点）", code: "代码",
       notKept: "这次评测的代码没有保存（较早的历史记录）。",
       judgingOf: (kind, when) => `${when} 的${kind}：`, slowestMs: (ms) => `最慢 ${ms}`,
       itsCode: "当时的代码", diffAgainst: (practice) => `与${practice ? "当前文件" : "你现在的代码"}对比`,
       same: (practice) => `与${practice ? "文件" : "你的代码"}现在的内容相同`,
       anyway: "仍然查看", idea: "思路", time: "时间", memory: "内存", routes: (n) => `${n} 种通过的解法，各走一条路。`},
};
