// Nothing to call: linking this target is what it does (ProcessArguments.c).
