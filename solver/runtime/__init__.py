"""What every command shares with the operating system: signals become an
exception and an exit status (:mod:`~solver.runtime.interrupt`), process
pools stopped on interruption (:mod:`~solver.runtime.workers`), output
files written whole or not at all (:mod:`~solver.runtime.output`)."""
