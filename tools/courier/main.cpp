#include <cstdio>
int main() { std::puts("courier: under construction"); return 0; }
