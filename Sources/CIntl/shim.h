#ifndef ICARE_CINTL_SHIM_H
#define ICARE_CINTL_SHIM_H
/* glibc's message catalogs (gettext) and locale data (setlocale,
 * nl_langinfo, strftime): all part of libc, nothing to link. */
#include <libintl.h>
#include <locale.h>
#include <langinfo.h>
#include <time.h>
#endif
