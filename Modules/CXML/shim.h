#ifndef NUDGE_CXML_SHIM_H
#define NUDGE_CXML_SHIM_H

// libxml2's tree reader, for WebDAV's multistatus answers. Nothing is wrapped: the
// functions Swift needs import as they are.
//
// Debian builds libxml2 with ICU, so its encoding.h includes <unicode/ucnv.h>, whose
// UErrorCode differs from the one in Foundation's own ICU (_FoundationICU). A compile that
// sees both modules fails on the clash (CI did, depending on how files were batched). Nudge
// never touches an encoding handler's fields, so the ICU members are left out here; the
// handler is only ever used through pointers.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>

#endif
