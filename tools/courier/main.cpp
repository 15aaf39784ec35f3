// courier: the command line of Courier, over its built-in engines and algorithms.
#include "cli.hpp"
#include "courier/algo/builtin.hpp"

int main(int argc, char** argv) { return courier::cli::main(argc, argv, courier::builtin_registry()); }
