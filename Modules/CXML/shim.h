#ifndef NUDGE_CXML_SHIM_H
#define NUDGE_CXML_SHIM_H

// libxml2's tree reader, for WebDAV's multistatus answers. Nothing is wrapped: the
// functions Swift needs import as they are.
#include <libxml/parser.h>
#include <libxml/tree.h>

#endif
