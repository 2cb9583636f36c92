! The Fortran tests' failure report, linked into each of them: the check
! number and the PE, then MPI_ABORT so the other PEs do not wait for this
! one.  The meson test name says which program failed.
      SUBROUTINE FAIL(N)
      INCLUDE 'mpif.h'
      INTEGER N, IERR, MY_PE
      PRINT *, 'check ', N, ' failed on PE ', MY_PE()
      CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
      END
