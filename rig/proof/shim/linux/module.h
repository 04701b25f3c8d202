/*
 * Stand-in for <linux/module.h>: EXPORT_SYMBOL() and EXPORT_SYMBOL_GPL()
 * are no-ops that still want a semicolon after them, as in the kernel.
 */
#ifndef LGSHIM_MODULE_H
#define LGSHIM_MODULE_H

#include <linux/init.h>

#define LGSHIM_EXPORT(kind, sym)	struct lgshim_export_##kind##_##sym
#define EXPORT_SYMBOL(sym)		LGSHIM_EXPORT(all, sym)
#define EXPORT_SYMBOL_GPL(sym)		LGSHIM_EXPORT(gpl, sym)

#endif
