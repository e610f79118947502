// libcurl's easy interface, loaded when first used (dlopen) rather than linked: libcurl and the
// libraries it brings (Kerberos, LDAP, SSH, HTTP/2) would otherwise be loaded by every camctl
// start, a few milliseconds each time, for the commands that download or send mail. Its option and
// information calls are variadic, which Swift cannot call: the wrappers below make them in C.
#ifndef CAMCTL_CCURL_SHIM_H
#define CAMCTL_CCURL_SHIM_H
#include <curl/curl.h>
#include <dlfcn.h>

typedef size_t (*camctl_curl_writer)(char *data, size_t size, size_t count, void *context);

// The functions camctl calls, from the loaded library.
typedef struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *curl);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *curl);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
} camctl_curl;

typedef size_t (*camctl_curl_reader)(char *buffer, size_t size, size_t count, void *context);

// Loads libcurl and finds its functions; 0 when it is not installed or lacks one.
static inline int camctl_curl_load(camctl_curl *api) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    api->global_init = (CURLcode (*)(long))dlsym(library, "curl_global_init");
    api->easy_init = (CURL *(*)(void))dlsym(library, "curl_easy_init");
    api->easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(library, "curl_easy_setopt");
    api->easy_perform = (CURLcode (*)(CURL *))dlsym(library, "curl_easy_perform");
    api->easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(library, "curl_easy_getinfo");
    api->easy_cleanup = (void (*)(CURL *))dlsym(library, "curl_easy_cleanup");
    api->easy_strerror = (const char *(*)(CURLcode))dlsym(library, "curl_easy_strerror");
    api->slist_append = (struct curl_slist *(*)(struct curl_slist *, const char *))dlsym(library, "curl_slist_append");
    api->slist_free_all = (void (*)(struct curl_slist *))dlsym(library, "curl_slist_free_all");
    return api->global_init && api->easy_init && api->easy_setopt && api->easy_perform && api->easy_getinfo
        && api->easy_cleanup && api->easy_strerror && api->slist_append && api->slist_free_all;
}

static inline CURLcode camctl_curl_set_text(const camctl_curl *api, CURL *curl, CURLoption option, const char *value) {
    return api->easy_setopt(curl, option, value);
}

static inline CURLcode camctl_curl_set_number(const camctl_curl *api, CURL *curl, CURLoption option, long value) {
    return api->easy_setopt(curl, option, value);
}

static inline CURLcode camctl_curl_set_size(const camctl_curl *api, CURL *curl, CURLoption option, curl_off_t value) {
    return api->easy_setopt(curl, option, value);
}

static inline CURLcode camctl_curl_set_writer(const camctl_curl *api, CURL *curl, camctl_curl_writer writer, void *context) {
    CURLcode code = api->easy_setopt(curl, CURLOPT_WRITEFUNCTION, writer);
    return code == CURLE_OK ? api->easy_setopt(curl, CURLOPT_WRITEDATA, context) : code;
}

static inline CURLcode camctl_curl_set_reader(const camctl_curl *api, CURL *curl, camctl_curl_reader reader, void *context) {
    CURLcode code = api->easy_setopt(curl, CURLOPT_READFUNCTION, reader);
    return code == CURLE_OK ? api->easy_setopt(curl, CURLOPT_READDATA, context) : code;
}

static inline CURLcode camctl_curl_set_list(const camctl_curl *api, CURL *curl, CURLoption option, struct curl_slist *list) {
    return api->easy_setopt(curl, option, list);
}

static inline long camctl_curl_response_code(const camctl_curl *api, CURL *curl) {
    long code = 0;
    api->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    return code;
}
#endif
