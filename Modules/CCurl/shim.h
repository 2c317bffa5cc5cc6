#ifndef NUDGE_CCURL_SHIM_H
#define NUDGE_CCURL_SHIM_H

// libcurl for Swift: curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are
// variadic, which Swift cannot call; these typed wrappers are all this module adds.
#include <curl/curl.h>

static inline CURLcode nudge_curl_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode nudge_curl_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode nudge_curl_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode nudge_curl_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode nudge_curl_setopt_size(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

/// CURLAUTH_BASIC, a macro with a cast Swift does not import.
static const unsigned long nudge_curl_auth_basic = CURLAUTH_BASIC;

/// The body and header callbacks' shape (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION).
typedef size_t (*nudge_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode nudge_curl_setopt_data_callback(CURL *easy, CURLoption option, nudge_curl_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

/// CURLMOPT_SOCKETFUNCTION's shape.
typedef int (*nudge_curl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *context, void *socketContext);
/// CURLMOPT_TIMERFUNCTION's shape.
typedef int (*nudge_curl_timer_callback)(CURLM *multi, long milliseconds, void *context);

static inline CURLMcode nudge_curl_multi_socket_callback(CURLM *multi, nudge_curl_socket_callback callback, void *context) {
    CURLMcode code = curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
    return code != CURLM_OK ? code : curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, context);
}
static inline CURLMcode nudge_curl_multi_timer_callback(CURLM *multi, nudge_curl_timer_callback callback, void *context) {
    CURLMcode code = curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
    return code != CURLM_OK ? code : curl_multi_setopt(multi, CURLMOPT_TIMERDATA, context);
}

static inline CURLcode nudge_curl_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode nudge_curl_getinfo_string(CURL *easy, CURLINFO info, char **value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode nudge_curl_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}

#endif
