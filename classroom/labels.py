"""Every label of the class's server-rendered pages, in English and Chinese, in one table (the
pages name a label by its key; a key missing from the table fails the page, not silently)."""

from __future__ import annotations

from collections.abc import Callable

LANGS = ("en", "zh")

LABELS: dict[str, tuple[str, str]] = {
    # base: the header's nav and the language switch
    "nav.problems": ("Problems", "题目"),
    "nav.submissions": ("Submissions", "提交记录"),
    "nav.scoreboard": ("Scoreboard", "排行榜"),
    "nav.admin": ("(admin)", "（管理员）"),
    "nav.signout": ("Sign out", "退出登录"),
    "nav.language": ("Language", "语言"),
    # the problem list
    "problems.title": ("Problems", "题目"),
    "problems.opens": ("Opens {when}.", "开始于 {when}。"),
    "problems.closes": ("Closes {when}.", "结束于 {when}。"),
    "problems.time_left": ("Time left:", "剩余时间："),
    "problems.over": ("over", "已结束"),
    "problems.problem": ("Problem", "题号"),
    "problems.name": ("Title", "标题"),
    "problems.difficulty": ("Difficulty", "难度"),
    "problems.tried": ("Tried", "尝试人数"),
    "problems.accepted": ("Accepted", "通过人数"),
    "problems.solve_rate": ("Solve rate", "通过率"),
    "problems.you": ("You", "你的状态"),
    "problems.rejudge_all": ("Rejudge all", "全部重测"),
    "problems.rejudge_confirm": ("Rejudge every submission of {slug}?", "重测 {slug} 的全部提交？"),
    "problems.note": ("Tried and Accepted count students (distinct users); the solve rate is Accepted / Tried.",
                      "尝试人数与通过人数按学生计（不重复计人）；通过率 = 通过人数 / 尝试人数。"),
    "you.solved": ("solved", "已通过"),
    "you.tried": ("tried", "已尝试"),
    # the scoreboard
    "board.title": ("Scoreboard", "排行榜"),
    "board.frozen": ("Frozen: submissions of the last {minutes} minutes show as pending.",
                     "已封榜：最后 {minutes} 分钟的提交显示为待定。"),
    "board.rank": ("#", "名次"),
    "board.user": ("User", "用户"),
    "board.solved": ("Solved", "解题数"),
    "board.penalty": ("Penalty", "罚时"),
    "board.note": ("Ranked by problems solved, then penalty: minutes from the start to each first AC, plus 20 per "
                   "rejected try before it (CE not counted).",
                   "先按解题数排名，再按罚时：从开始到每题首次 AC 的分钟数，加上此前每次被拒提交 20 分钟（CE 不计）。"),
    # the submissions list and a submission
    "subs.title": ("Submissions", "提交记录"),
    "subs.problem": ("Problem", "题目"),
    "subs.verdict": ("Verdict", "结果"),
    "subs.status": ("Status", "状态"),
    "subs.any": ("any", "全部"),
    "subs.user": ("User", "用户"),
    "subs.filter": ("Filter", "筛选"),
    "subs.id": ("#", "编号"),
    "subs.when": ("When", "时间"),
    "subs.cpu": ("CPU", "CPU 时间"),
    "subs.memory": ("Memory", "内存"),
    "subs.none": ("No submission yet.", "还没有提交。"),
    "status.queued": ("queued", "排队中"),
    "status.judging": ("judging", "评测中"),
    "status.done": ("done", "已完成"),
    "sub.title": ("Submission {id}", "提交 {id}"),
    "sub.by": ("By {user}, {when}.", "{user} 提交于 {when}。"),
    "sub.status": ("Status", "状态"),
    "sub.verdict": (", verdict", "，结果"),
    "sub.tries": ("({n} tries)", "（评测 {n} 次）"),
    "sub.rejudge": ("Rejudge", "重测"),
    "sub.test": ("Test", "测试点"),
    "sub.message": ("Message", "信息"),
    "sub.printed": ("stdout / stderr", "标准输出 / 标准错误"),
    "sub.shortened": ("({size} bytes in all, shortened)", "（共 {size} 字节，已截短）"),
    "sub.nothing_printed": ("(nothing printed)", "（没有输出）"),
    "sub.traceback": ("traceback (your code only)", "调用栈（仅你的代码）"),
    "sub.hidden": ("hidden test: its verdict only", "隐藏测试点：只显示结果"),
    "sub.hidden_failure": ("{verdict} on hidden test {n}: a contest shows a hidden test's verdict only",
                           "隐藏测试点 {n} 的结果为 {verdict}：比赛中隐藏测试点只显示结果"),
    "sub.code": ("Code", "代码"),
    "sub.diff": ("Against your code now", "与你现在的代码对比"),
    "sub.same": ("The same as your code now.", "与你现在的代码相同。"),
    "sub.live": ("updating as it is judged", "评测中，页面自动更新"),
    # the account page
    "account.title": ("Account", "账户"),
    "account.token": ("API token", "API 令牌"),
    "account.token_new": ("Your new token (shown once; the old one no longer works):",
                          "你的新令牌（只显示这一次；旧令牌已失效）："),
    "account.token_button": ("New API token", "生成新的 API 令牌"),
    "account.password": ("Password", "密码"),
    "account.current": ("Current", "当前密码"),
    "account.new": ("New (10 characters or more)", "新密码（至少 10 个字符）"),
    "account.change": ("Change password", "修改密码"),
    "role.student": ("student", "学生"),
    "role.admin": ("admin", "管理员"),
    # sign-in
    "signin.title": ("Sign in", "登录"),
    "signin.login": ("Name or email", "用户名或邮箱"),
    "signin.password": ("Password", "密码"),
    "signin.button": ("Sign in", "登录"),
    # the editorial
    "editorial.title": ("Editorial", "题解"),
    "problem.code": ("your code (kept by the class's server)", "你的代码（保存在班级服务器上）"),
    "editorial.count": ("{n} accepted solutions, each a different route.", "{n} 份通过的解法，每份思路不同。"),
    "editorial.idea": ("The idea", "思路"),
    "editorial.time": ("time", "时间"),
    "editorial.memory": ("memory", "内存"),
    # the error page
    "error.title": ("Refused", "请求被拒绝"),
    "error.back": ("Back to the problems", "返回题目列表"),
}


def label(key: str, lang: str, **values: object) -> str:
    """The label in `lang` ("en" or "zh"), its {names} filled from `values`."""
    text = LABELS[key][LANGS.index(lang)]
    return text.format(**values) if values else text


def labeler(lang: str) -> Callable[..., str]:
    """The pages' t(key, **values): labels in one language."""
    return lambda key, **values: label(key, lang, **values)
