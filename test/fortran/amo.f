! Fortran atomics, waits and locks, fixed form, on COMMON and SAVE
! variables.  Exits 1 on a wrong value.
      PROGRAM FAMO
      INCLUDE 'mpp/shmem.fh'
      INTEGER*4 C4, S4, W4
      INTEGER*8 C8, S8, W8
      REAL*4 R4
      REAL*8 R8
      INTEGER IW, LOCK, COUNT
      COMMON /CAMO/ C8, R8, C4, R4, IW
      SAVE S4, S8, W4, W8, LOCK, COUNT
      INTEGER*4 SHMEM_INT4_SWAP, SHMEM_INT4_CSWAP
      INTEGER*4 SHMEM_INT4_FADD, SHMEM_INT4_FINC
      INTEGER*8 SHMEM_INT8_SWAP, SHMEM_INT8_CSWAP
      INTEGER*8 SHMEM_INT8_FADD, SHMEM_INT8_FINC
      REAL*4 SHMEM_REAL4_SWAP
      REAL*8 SHMEM_REAL8_SWAP
      INTEGER SHMEM_SWAP, SHMEM_TEST_LOCK
      INTEGER ME, NP, I, K, OLD
      INTEGER*4 V4
      INTEGER*8 V8
      INTEGER*8 BIG
      PARAMETER (BIG = 4294967296_8)

      CALL START_PES(0)
      ME = MY_PE()
      NP = NUM_PES()
      C4 = 0
      C8 = 0
      S4 = 0
      S8 = 0
      W4 = 0
      W8 = 0
      IW = 0
      LOCK = 0
      COUNT = 0
      R4 = 0.0
      R8 = 0.0
      CALL SHMEM_BARRIER_ALL()

! Every PE adds to PE 0: INC, ADD, FINC, FADD.
      CALL SHMEM_INT4_INC(C4, 0)
      CALL SHMEM_INT4_ADD(C4, 10, 0)
      V4 = SHMEM_INT4_FINC(C4, 0)
      IF (V4 .LT. 11 .OR. V4 .GE. 112 * NP) CALL FAIL(1)
      V4 = SHMEM_INT4_FADD(C4, 100, 0)
      IF (V4 .LT. 0 .OR. V4 .GE. 112 * NP) CALL FAIL(2)
      CALL SHMEM_INT8_INC(C8, 0)
      CALL SHMEM_INT8_ADD(C8, BIG, 0)
      V8 = SHMEM_INT8_FINC(C8, 0)
      V8 = SHMEM_INT8_FADD(C8, 5 * BIG, 0)
      IF (V8 .LT. 0) CALL FAIL(3)
      CALL SHMEM_BARRIER_ALL()
      IF (ME .EQ. 0) THEN
         IF (C4 .NE. 112 * NP) CALL FAIL(4)
         IF (C8 .NE. NP * (2 + 6 * BIG)) CALL FAIL(5)
      END IF
      CALL SHMEM_BARRIER_ALL()

! CSWAP: exactly one PE wins each round on PE 0's S4/S8.
      DO K = 0, NP - 1
         V4 = SHMEM_INT4_CSWAP(S4, K, K + 1, 0)
         V8 = SHMEM_INT8_CSWAP(S8, INT(K, 8), INT(K + 1, 8), 0)
      END DO
      CALL SHMEM_BARRIER_ALL()
      IF (ME .EQ. 0) THEN
         IF (S4 .NE. NP .OR. S8 .NE. NP) CALL FAIL(6)
      END IF
! SWAP: the values swapped in form a chain; the sum of all returned
! values plus the final one is the sum of everything swapped in.
      IF (ME .EQ. 0) THEN
         S4 = 0
         S8 = 0
      END IF
      CALL SHMEM_BARRIER_ALL()
      V4 = SHMEM_INT4_SWAP(S4, ME + 1, 0)
      V8 = SHMEM_INT8_SWAP(S8, INT(ME + 1, 8) * BIG, 0)
      CALL SHMEM_INT4_ADD(W4, V4, 0)
      CALL SHMEM_INT8_ADD(W8, V8, 0)
      CALL SHMEM_BARRIER_ALL()
      IF (ME .EQ. 0) THEN
         IF (W4 + S4 .NE. NP * (NP + 1) / 2) CALL FAIL(7)
         IF (W8 + S8 .NE. BIG * NP * (NP + 1) / 2) CALL FAIL(8)
      END IF
      CALL SHMEM_BARRIER_ALL()
      IF (SHMEM_REAL4_SWAP(R4, 1.5, ME) .NE. 0.0) CALL FAIL(9)
      IF (SHMEM_REAL8_SWAP(R8, 2.5D0, ME) .NE. 0.0D0) CALL FAIL(10)
      IF (R4 .NE. 1.5 .OR. R8 .NE. 2.5D0) CALL FAIL(11)
      OLD = SHMEM_SWAP(IW, 7, ME)
      IF (OLD .NE. 0 .OR. IW .NE. 7) CALL FAIL(12)
      CALL SHMEM_BARRIER_ALL()

! Waits: PE 0 wakes each other PE in turn and waits for its answer.
      IW = 0
      W4 = 0
      W8 = 0
      CALL SHMEM_BARRIER_ALL()
      IF (ME .EQ. 0) THEN
         DO K = 1, NP - 1
            CALL SHMEM_INTEGER_PUT(IW, K, 1, K)
            CALL SHMEM_WAIT_UNTIL(IW, SHMEM_CMP_EQ, K)
            CALL SHMEM_INT4_WAIT_UNTIL(W4, SHMEM_CMP_GE, K)
            CALL SHMEM_INT8_WAIT_UNTIL(W8, SHMEM_CMP_GT, INT(K-1, 8))
         END DO
         DO K = 1, NP - 1
            CALL SHMEM_INT4_ADD(W4, 1, K)
            CALL SHMEM_INT8_ADD(W8, INT(1, 8), K)
         END DO
      ELSE
         CALL SHMEM_WAIT(IW, 0)
         IF (IW .NE. ME) CALL FAIL(13)
         CALL SHMEM_INT4_ADD(W4, 1, 0)
         CALL SHMEM_INT8_ADD(W8, INT(1, 8), 0)
         CALL SHMEM_INTEGER_PUT(IW, ME, 1, 0)
         CALL SHMEM_INT4_WAIT(W4, 0)
         CALL SHMEM_INT8_WAIT(W8, INT(0, 8))
      END IF
      CALL SHMEM_BARRIER_ALL()
      IF (ME .EQ. 0 .AND. (W4 .NE. NP - 1 .OR. W8 .NE. NP - 1))
     &   CALL FAIL(16)

! Locks: a default INTEGER lock guards a read-modify-write of COUNT
! on PE 0; TEST_LOCK too.
      DO I = 1, 20
         CALL SHMEM_SET_LOCK(LOCK)
         CALL SHMEM_INTEGER_GET(K, COUNT, 1, 0)
         CALL SHMEM_INTEGER_PUT(COUNT, K + 1, 1, 0)
         CALL SHMEM_QUIET()
         CALL SHMEM_CLEAR_LOCK(LOCK)
      END DO
      DO I = 1, 5
  10     IF (SHMEM_TEST_LOCK(LOCK) .NE. 0) GOTO 10
         CALL SHMEM_INTEGER_GET(K, COUNT, 1, 0)
         CALL SHMEM_INTEGER_PUT(COUNT, K + 1, 1, 0)
         CALL SHMEM_FENCE()
         CALL SHMEM_QUIET()
         CALL SHMEM_CLEAR_LOCK(LOCK)
      END DO
      CALL SHMEM_BARRIER_ALL()
      IF (ME .EQ. 0 .AND. COUNT .NE. 25 * NP) CALL FAIL(14)
      IF (LOCK .NE. 0) CALL FAIL(15)
      CALL SHMEM_BARRIER_ALL()
      END
