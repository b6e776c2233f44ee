"""Every word a player reads: the message catalogue (English in code, other languages in
gettext files under ``locale/``), saying the rules' messages in a reader's language, the
bot's own post wording, and the tools that keep the translation files in step."""
