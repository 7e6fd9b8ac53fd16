# A later fragment overriding the first, as configs/callers.config does.
CONFIG_UPROBE_EVENTS=y
CONFIG_BPF_LSM=y
