#ifndef CGETTEXT_SHIM_H
#define CGETTEXT_SHIM_H

// glibc's gettext, which Swift's Glibc module leaves out: the message catalogs a translator writes (po/), read in the
// language the person chose (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). Part of glibc itself: nothing to link.
#include <libintl.h>

#endif
