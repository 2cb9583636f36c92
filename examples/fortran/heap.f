! Symmetric heap from Fortran 77: SHPALLOC gives a Cray pointer to
! N words on every PE; each PE fills its right neighbour's block with
! SHMEM_PUT4 and checks what its left neighbour wrote.
! mpif90 -fcray-pointer -I PREFIX/include heap.f -L PREFIX/lib -lmpishmem
      PROGRAM HEAP
      INCLUDE 'mpp/shmem.fh'
      INTEGER N
      PARAMETER (N = 1000)
      INTEGER BLOCK(N), MINE(N)
      POINTER (PBLOCK, BLOCK)
      INTEGER ME, NP, I, ERR, LEFT

      CALL START_PES(0)
      ME = MY_PE()
      NP = NUM_PES()
      CALL SHPALLOC(PBLOCK, N, ERR, 1)
      DO I = 1, N
         MINE(I) = ME * N + I
      END DO
      CALL SHMEM_PUT4(BLOCK, MINE, N, MOD(ME + 1, NP))
      CALL SHMEM_BARRIER_ALL()
      LEFT = MOD(ME + NP - 1, NP)
      DO I = 1, N
         IF (BLOCK(I) .NE. LEFT * N + I) STOP 1
      END DO
      IF (ME .EQ. 0) PRINT *, 'heap: ', NP, ' PEs checked'
      CALL SHPDEALLC(PBLOCK, ERR, 1)
      END
