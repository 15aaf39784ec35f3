#pragma once
// The command line of courierc: `courierc PROGRAM.sp [-o OUT] --emit tokens|ast|analysis`. Shows a stage of
// the front end; code generation (without --emit) is not built yet and exits 2.
#include <ostream>

namespace courier::courierc {

// Runs the command line, writing what it shows to `out` and errors to `err`; returns the exit
// status: 0 done, 1 the program or the options are wrong, 2 code generation was asked for.
int main(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace courier::courierc
