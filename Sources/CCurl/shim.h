// libcurl's easy interface. Its option and information calls are variadic, which Swift cannot
// call: these wrappers give each kind of value a call of its own.
#include <curl/curl.h>

typedef size_t (*camctl_curl_writer)(char *data, size_t size, size_t count, void *context);

static inline CURLcode camctl_curl_set_text(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode camctl_curl_set_number(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode camctl_curl_set_writer(CURL *curl, camctl_curl_writer writer, void *context) {
    CURLcode code = curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, writer);
    return code == CURLE_OK ? curl_easy_setopt(curl, CURLOPT_WRITEDATA, context) : code;
}

static inline long camctl_curl_response_code(CURL *curl) {
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    return code;
}
