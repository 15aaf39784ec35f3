// courierc: the compiler of Courier's graph language.
#include <iostream>

#include "courierc.hpp"

int main(int argc, char** argv) { return courier::courierc::main(argc, argv, std::cout, std::cerr); }
