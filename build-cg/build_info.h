#define BUILDBPF_COMMIT "bca65f297944-dirty"
