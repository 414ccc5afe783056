"""Every sentence `serve` and its app entry print, in both languages."""

from __future__ import annotations

from tutor.i18n import table

MSG = table(
    {
        "title": {"en": "jaxstate-tutor", "zh": "jaxstate-tutor"},  # where the course could not be read
        "no_textual_serve": {
            "en": "serving needs textual-serve, which is not installed: pip install 'jaxstate-tutor[serve]'",
            "zh": "浏览器模式需要 textual-serve，但它没有安装：pip install 'jaxstate-tutor[serve]'",
        },
        "bad_learner": {
            "en": "--learner {name!r}: a learner's name is its folder's name: a-z, 0-9, '.', '_' and '-', "
            "starting with a letter or digit",
            "zh": "--learner {name!r}：学习者的名字也是文件夹名，只能用 a-z、0-9、'.'、'_' 和 '-'，并以字母或数字开头",
        },
        "port_taken": {
            "en": "cannot listen on {host}:{port}: {why}. Choose another port with --port (0: any free one).",
            "zh": "无法在 {host}:{port} 上监听：{why}。请用 --port 换一个端口（0 表示任选一个空闲端口）。",
        },
        "serving": {
            "en": "The tutor is served at (open it in a browser; the token in the address is the key):",
            "zh": "教程已在以下地址提供（用浏览器打开；地址中的 token 就是钥匙）：",
        },
        "you": {"en": "you", "zh": "你"},
        "seat": {"en": "  {name}: {url}", "zh": "  {name}：{url}"},
        "seat_home": {"en": "    home: {home}", "zh": "    数据目录：{home}"},
        "tunnel": {
            "en": "From another machine: ssh -L {port}:127.0.0.1:{port} THIS_HOST, then open the same address.",
            "zh": "从另一台机器访问：先运行 ssh -L {port}:127.0.0.1:{port} 本机，再打开同一个地址。",
        },
        "plain_http": {
            "en": "warning: {host} is reachable from other machines and this is plain HTTP: the token crosses the "
            "network readable. Prefer the default 127.0.0.1 and an SSH tunnel, or a TLS proxy in front.",
            "zh": "警告：{host} 可被其他机器访问，而这是不加密的 HTTP：token 会以明文经过网络。"
            "建议用默认的 127.0.0.1 加 SSH 隧道，或在前面放一个 TLS 代理。",
        },
        "stop": {
            "en": "Ctrl+C stops the server (each open tutor saves and closes).",
            "zh": "按 Ctrl+C 停止服务（每个打开的教程会保存并关闭）。",
        },
        "forbidden": {
            "en": "403: this address needs the token that `jaxstate-tutor serve` printed (…/?token=…).",
            "zh": "403：这个地址需要 `jaxstate-tutor serve` 打印出的 token（…/?token=…）。",
        },
        "not_web": {
            "en": "tutor.serve.app runs the tutor under textual-serve only (TEXTUAL_DRIVER is not Textual's web "
            "driver here); use `jaxstate-tutor serve`, or `jaxstate-tutor` in a terminal.",
            "zh": "tutor.serve.app 只在 textual-serve 之下运行（这里的 TEXTUAL_DRIVER 不是 Textual 的网页驱动）；"
            "请用 `jaxstate-tutor serve`，或在终端里运行 `jaxstate-tutor`。",
        },
        "ended": {
            "en": "The tutor closed: quit, opened in another tab, or the server stopped. Your work is saved.",
            "zh": "教程已关闭：已退出、在另一个标签页中打开了，或服务已停止。你的进度已保存。",
        },
        "reload": {"en": "Open again", "zh": "重新打开"},
        "file_name": {
            "en": "Not a file of your workspace (a name like counter-jit.py).",
            "zh": "不是你工作区里的文件（名字应像 counter-jit.py）。",
        },
        "file_missing": {
            "en": "Your workspace has no such file: open its exercise first.",
            "zh": "你的工作区里没有这个文件：请先打开对应的练习。",
        },
        "file_too_big": {
            "en": "That file is too big for an exercise file (512 KB at most); nothing was changed.",
            "zh": "这个文件太大，不像练习文件（最多 512 KB）；什么都没有改。",
        },
        "file_not_text": {
            "en": "That file is not UTF-8 text (a Python file is); nothing was changed.",
            "zh": "这个文件不是 UTF-8 文本（Python 文件应该是）；什么都没有改。",
        },
        "uploaded": {
            "en": "Uploaded: it replaces {name} and is checked now; the old one is kept in {backup}.",
            "zh": "已上传：它替换了 {name}，现在进行检查；旧文件保存在 {backup}。",
        },
        "upload_title": {"en": "Upload a file in place of", "zh": "上传一个文件来替换"},
        "upload_go": {"en": "Upload", "zh": "上传"},
        "upload_cancel": {"en": "Cancel", "zh": "取消"},
    }
)
