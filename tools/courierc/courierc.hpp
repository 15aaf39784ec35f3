#pragma once
// The command line of courierc: `courierc PROGRAM.sp [-o OUT.cpp] [--header OUT.hpp] [--naive]` generates
// C++ for Courier's engine; `--emit tokens|ast|analysis` shows a stage of the front end instead.
#include <ostream>

namespace courier::courierc {

// Runs the command line, writing what it shows to `out` and errors to `err`; returns the exit
// status: 0 done, 1 the program or the options are wrong.
int main(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace courier::courierc
