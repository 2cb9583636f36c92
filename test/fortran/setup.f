! Fortran setup and queries, fixed form with old-style flags:
! START_PES (which starts MPI: MPI_Wtime works without MPI_Init),
! MY_PE, NUM_PES, SHMEM_PE_ACCESSIBLE, SHMEM_ADDR_ACCESSIBLE,
! SHMEM_PTR with a Cray pointer, SHPALLOC/SHPCLMOVE/SHPDEALLC and
! the cache routines.  Exits 1 on a wrong value.
      PROGRAM FSETUP
      INCLUDE 'mpp/shmem.fh'
      INCLUDE 'mpif.h'
      INTEGER ME, NP, I, ERR, IERR, MSIZE, NEXT
      DOUBLE PRECISION T0, T1
      INTEGER X(4)
      COMMON /CBLK/ X
      INTEGER A(1), B(1), R(1)
      POINTER (PA, A)
      POINTER (PB, B)
      POINTER (PR, R)

      CALL START_PES(0)
      T0 = MPI_WTIME()
      ME = MY_PE()
      NP = NUM_PES()
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, MSIZE, IERR)
      IF (NP .NE. MSIZE .OR. ME .LT. 0 .OR. ME .GE. NP) CALL FAIL(1)
      CALL START_PES(0)
      IF (MY_PE() .NE. ME) CALL FAIL(2)
      IF (.NOT. SHMEM_PE_ACCESSIBLE(NP - 1)) CALL FAIL(3)
      IF (SHMEM_PE_ACCESSIBLE(NP)) CALL FAIL(4)
      IF (.NOT. SHMEM_ADDR_ACCESSIBLE(X, NP - 1)) CALL FAIL(5)
      CALL PRIVCHK

! SHMEM_PTR: our own COMMON block is always directly addressable.
      X(1) = 100 + ME
      PR = SHMEM_PTR(X, ME)
      IF (PR .NE. 0) THEN
         IF (R(1) .NE. 100 + ME) CALL FAIL(7)
      END IF

! SHPALLOC: 10 words, written by the left neighbour.
      CALL SHPALLOC(PA, 10, ERR, 1)
      IF (ERR .NE. 0) CALL FAIL(8)
      DO I = 1, 10
         A(I) = -1
      END DO
      CALL SHMEM_BARRIER_ALL()
      NEXT = MOD(ME + 1, NP)
      DO I = 1, 10
         X(1) = ME * 1000 + I
         CALL SHMEM_INTEGER_PUT(A(I), X(1), 1, NEXT)
      END DO
      CALL SHMEM_BARRIER_ALL()
      DO I = 1, 10
         IF (A(I) .NE. MOD(ME + NP - 1, NP) * 1000 + I) CALL FAIL(9)
      END DO
! A bad length returns -1 when abort is 0.
      CALL SHPALLOC(PB, 0, ERR, 0)
      IF (ERR .NE. -1) CALL FAIL(10)
! SHPCLMOVE keeps the contents.
      CALL SHPCLMOVE(PA, 100000, ERR, 1)
      IF (ERR .NE. 0 .AND. ERR .NE. 1) CALL FAIL(11)
      DO I = 1, 10
         IF (A(I) .NE. MOD(ME + NP - 1, NP) * 1000 + I) CALL FAIL(12)
      END DO
      A(100000) = 7
      CALL SHPDEALLC(PA, ERR, 1)
      IF (ERR .NE. 0) CALL FAIL(13)

      CALL SHMEM_SET_CACHE_INV()
      CALL SHMEM_SET_CACHE_LINE_INV(X)
      CALL SHMEM_CLEAR_CACHE_INV()
      CALL SHMEM_CLEAR_CACHE_LINE_INV(X)
      CALL SHMEM_UDCFLUSH()
      CALL SHMEM_UDCFLUSH_LINE(X)
      T1 = MPI_WTIME()
      IF (T1 .LT. T0) CALL FAIL(15)
      CALL SHMEM_BARRIER_ALL()
      END

! A stack variable is not symmetric: not accessible, not freeable.
      SUBROUTINE PRIVCHK
      INCLUDE 'mpp/shmem.fh'
      INTEGER L(1), ERR
      POINTER (PL, L)
      INTEGER S
      PL = LOC(S)
      IF (SHMEM_ADDR_ACCESSIBLE(S, 0)) CALL FAIL(6)
      CALL SHPDEALLC(PL, ERR, 0)
      IF (ERR .NE. -3) CALL FAIL(14)
      END
