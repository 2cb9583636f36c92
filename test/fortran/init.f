! The OpenSHMEM 1.4 set-up and query routines, fixed form through
! 'shmem.fh': SHMEM_INIT, SHMEM_MY_PE, SHMEM_N_PES, SHMEM_INFO_GET_VERSION
! and SHMEM_INFO_GET_NAME (blank-padded to the argument's length, cut
! short in a shorter one), the header's constants, the INT4/INT8/REAL4/
! REAL8 FETCH and SET atomics, and SHMEM_FINALIZE, which must end MPI
! (the library started it).  Exits 1 on a wrong value.
      PROGRAM FINIT
      IMPLICIT NONE
      INCLUDE 'shmem.fh'
      INCLUDE 'mpif.h'
      INTEGER SHMEM_MY_PE, SHMEM_N_PES, MY_PE, NUM_PES
      INTEGER*4 SHMEM_INT4_FETCH
      INTEGER*8 SHMEM_INT8_FETCH
      REAL*4 SHMEM_REAL4_FETCH
      REAL*8 SHMEM_REAL8_FETCH
      INTEGER*8 V8
      REAL*8 VR8
      INTEGER*4 V4
      REAL*4 VR4
      COMMON /CFETCH/ V8, VR8, V4, VR4
      INTEGER ME, NP, RIGHT, LEFT, FAR, RANK, SIZE, IERR, MAJ, MIN, I
      LOGICAL DOWN
      CHARACTER*(SHMEM_MAX_NAME_LEN) NAME
      CHARACTER*300 LONG
      CHARACTER*20 SHORT
      INTEGER*8 BIG
      PARAMETER (BIG = 4294967296_8)

      CALL SHMEM_INIT()
      ME = SHMEM_MY_PE()
      NP = SHMEM_N_PES()
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, SIZE, IERR)
      IF (ME .NE. RANK .OR. NP .NE. SIZE) CALL FAIL(1)
      IF (MY_PE() .NE. ME .OR. NUM_PES() .NE. NP) CALL FAIL(2)
      RIGHT = MOD(ME + 1, NP)
      LEFT = MOD(ME + NP - 1, NP)
      FAR = MOD(LEFT + NP - 1, NP)

! The version is the Fortran interface's, 1.4, as in the header.
      MAJ = -1
      MIN = -1
      CALL SHMEM_INFO_GET_VERSION(MAJ, MIN)
      IF (MAJ .NE. 1 .OR. MIN .NE. 4) CALL FAIL(3)
      IF (SHMEM_MAJOR_VERSION .NE. 1) CALL FAIL(4)
      IF (SHMEM_MINOR_VERSION .NE. 4) CALL FAIL(4)
! The name: the header's SHMEM_VENDOR_STRING, blanks to the end.
      NAME = REPEAT('x', SHMEM_MAX_NAME_LEN)
      CALL SHMEM_INFO_GET_NAME(NAME)
      IF (NAME .NE. SHMEM_VENDOR_STRING) CALL FAIL(5)
      IF (NAME(1:9) .NE. 'mpishmem ') CALL FAIL(5)
      IF (LEN_TRIM(NAME) .LT. 10) CALL FAIL(5)
      LONG = REPEAT('x', 300)
      CALL SHMEM_INFO_GET_NAME(LONG)
      IF (LONG(1:SHMEM_MAX_NAME_LEN) .NE. SHMEM_VENDOR_STRING)
     &   CALL FAIL(6)
      DO I = LEN_TRIM(NAME) + 1, 300
         IF (LONG(I:I) .NE. ' ') CALL FAIL(6)
      END DO
! A shorter argument gets the start of the name and nothing past it.
      SHORT = REPEAT('z', 20)
      CALL SHMEM_INFO_GET_NAME(SHORT(1:8))
      IF (SHORT .NE. 'mpishmem' // REPEAT('z', 12)) CALL FAIL(7)
      CALL CONSTS

! SET on the right neighbour, then FETCH from the left one.
      V4 = -1
      V8 = -1
      VR4 = -1.0
      VR8 = -1.0D0
      CALL SHMEM_BARRIER_ALL()
      CALL SHMEM_INT4_SET(V4, 1000 + ME, RIGHT)
      CALL SHMEM_INT8_SET(V8, BIG * (ME + 3), RIGHT)
      CALL SHMEM_REAL4_SET(VR4, 0.5 + ME, RIGHT)
      CALL SHMEM_REAL8_SET(VR8, ME + 2.0D0**(-40), RIGHT)
      CALL SHMEM_BARRIER_ALL()
      IF (V4 .NE. 1000 + LEFT .OR. V8 .NE. BIG * (LEFT + 3))
     &   CALL FAIL(8)
      IF (VR4 .NE. 0.5 + LEFT .OR. VR8 .NE. LEFT + 2.0D0**(-40))
     &   CALL FAIL(9)
      IF (SHMEM_INT4_FETCH(V4, LEFT) .NE. 1000 + FAR) CALL FAIL(10)
      IF (SHMEM_INT8_FETCH(V8, LEFT) .NE. BIG * (FAR + 3)) CALL FAIL(11)
      IF (SHMEM_REAL4_FETCH(VR4, LEFT) .NE. 0.5 + FAR) CALL FAIL(12)
      IF (SHMEM_REAL8_FETCH(VR8, LEFT) .NE. FAR + 2.0D0**(-40))
     &   CALL FAIL(13)
      CALL SHMEM_BARRIER_ALL()

      CALL SHMEM_FINALIZE()
      CALL MPI_FINALIZED(DOWN, IERR)
      IF (.NOT. DOWN) CALL FAIL(14)
      END

! The header's constants in fixed form: the collectives' sizes (the
! library checks them against C's in test fortran_symbols), the
! comparisons and the vendor string's length.
      SUBROUTINE CONSTS
      IMPLICIT NONE
      INCLUDE 'shmem.fh'
      INTEGER S(7), I
      S(1) = SHMEM_BARRIER_SYNC_SIZE
      S(2) = SHMEM_BCAST_SYNC_SIZE
      S(3) = SHMEM_REDUCE_SYNC_SIZE
      S(4) = SHMEM_COLLECT_SYNC_SIZE
      S(5) = SHMEM_ALLTOALL_SYNC_SIZE
      S(6) = SHMEM_ALLTOALLS_SYNC_SIZE
      S(7) = SHMEM_SYNC_SIZE
      DO I = 1, 7
         IF (S(I) .LT. 1 .OR. S(I) .GT. SHMEM_SYNC_SIZE) CALL FAIL(20)
      END DO
      IF (SHMEM_SYNC_VALUE .NE. -1) CALL FAIL(21)
      IF (SHMEM_REDUCE_MIN_WRKDATA_SIZE .LT. 1) CALL FAIL(22)
      IF (LEN(SHMEM_VENDOR_STRING) .NE. SHMEM_MAX_NAME_LEN)
     &   CALL FAIL(23)
      IF (SHMEM_CMP_EQ .EQ. SHMEM_CMP_NE) CALL FAIL(24)
      IF (SHMEM_CMP_GT + SHMEM_CMP_GE + SHMEM_CMP_LT + SHMEM_CMP_LE
     &    + SHMEM_CMP_EQ + SHMEM_CMP_NE .NE. 21) CALL FAIL(24)
      END
