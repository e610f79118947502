// OpenSSL's libcrypto, loaded when a checksum is first needed (dlopen) rather than linked: most
// camctl runs hash nothing, and its SHA-256 uses the processor's SHA instructions where there are.
#ifndef CAMCTL_CCRYPTO_SHIM_H
#define CAMCTL_CCRYPTO_SHIM_H
#include <dlfcn.h>
#include <stddef.h>

// libcrypto's types, opaque here (its headers are not needed to call it).
typedef struct camctl_md_ctx camctl_md_ctx;
typedef struct camctl_md camctl_md;

// The functions camctl calls, from the loaded library.
typedef struct {
    camctl_md_ctx *(*context_new)(void);
    void (*context_free)(camctl_md_ctx *context);
    int (*context_copy)(camctl_md_ctx *to, const camctl_md_ctx *from);
    const camctl_md *(*sha256)(void);
    int (*digest_init)(camctl_md_ctx *context, const camctl_md *type, void *engine);
    int (*digest_update)(camctl_md_ctx *context, const void *data, size_t count);
    int (*digest_final)(camctl_md_ctx *context, unsigned char *digest, unsigned int *length);
    unsigned char *(*hmac)(const camctl_md *type, const void *key, int keyLength, const unsigned char *data, size_t count,
                           unsigned char *digest, unsigned int *length);
    int (*memcmp)(const void *a, const void *b, size_t count);
} camctl_crypto;

// Loads libcrypto and finds its functions; 0 when it is not installed or lacks one.
static inline int camctl_crypto_load(camctl_crypto *api) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
#define CAMCTL_FIND(field, name) *(void **)(&api->field) = dlsym(library, name); if (!api->field) return 0
    CAMCTL_FIND(context_new, "EVP_MD_CTX_new");
    CAMCTL_FIND(context_free, "EVP_MD_CTX_free");
    CAMCTL_FIND(context_copy, "EVP_MD_CTX_copy_ex");
    CAMCTL_FIND(sha256, "EVP_sha256");
    CAMCTL_FIND(digest_init, "EVP_DigestInit_ex");
    CAMCTL_FIND(digest_update, "EVP_DigestUpdate");
    CAMCTL_FIND(digest_final, "EVP_DigestFinal_ex");
    CAMCTL_FIND(hmac, "HMAC");
    CAMCTL_FIND(memcmp, "CRYPTO_memcmp");
#undef CAMCTL_FIND
    return 1;
}
#endif
