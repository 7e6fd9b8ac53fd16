# A fragment as configs/kit.config writes one.
CONFIG_FTRACE=y
# CONFIG_UPROBE_EVENTS is not set
CONFIG_SECURITY_TOYLSM=y
