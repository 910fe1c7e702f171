#define BUILDBPF_COMMIT "660da7bad4b7-dirty"
