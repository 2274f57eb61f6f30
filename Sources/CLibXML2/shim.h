#pragma once
#include <libxml/xmlreader.h>

/// Drops a message of libxml2's generic error channel (Swift cannot write a variadic function).
static inline void mockgps_xml_ignore(void *context, const char *message, ...) {
  (void)context;
  (void)message;
}

/// While a reader reads: errors raised without a parser context go to `handler` with
/// `context`, and the generic channel's own lines ("xmlParseChunk: encoder error", which
/// repeat an error already raised) are dropped instead of printed on standard error.
/// libxml2 keeps both per thread.
static inline void mockgps_xml_capture_errors(void *context, xmlStructuredErrorFunc handler) {
  xmlSetStructuredErrorFunc(context, handler);
  xmlSetGenericErrorFunc(NULL, mockgps_xml_ignore);
}

/// Gives the thread's error channels back to libxml2's defaults.
static inline void mockgps_xml_release_errors(void) {
  xmlSetStructuredErrorFunc(NULL, NULL);
  xmlSetGenericErrorFunc(NULL, NULL);
}
