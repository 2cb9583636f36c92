"""The raw MPI routes that floor each 8-byte row of bench/oshbench.c
(mpi_route_ops.h): the correct routes with the same MPI operation as the
row; a row's floor is the fastest of them.  Bandwidth rows and MPI's own
collectives (oshbench's floor_coll rows) are floored by the row of the
same name.  Shared by compare_summary.py and cluster_summary.py.

SPDX-License-Identifier: BSD-3-Clause
"""

ROUTES = {
    'put8+quiet': ['put+flush'],
    'get8': ['get+flush', 'get+flush_local', 'rget+wait'],
    'g8': ['get+flush', 'get+flush_local', 'rget+wait'],
    'p8': ['put_nbi_rate'], 'put8_rate': ['put_nbi_rate'],
    'atomic_fetch': ['fop_noop+flush', 'fop_noop+flush_local'],
    'atomic_set': ['acc_replace_post'],
    'atomic_swap': ['fop_replace+flush', 'fop_replace+flush_local'],
    'atomic_compare_swap': ['cas+flush', 'cas+flush_local'],
}
for _op in ['atomic_fetch_add', 'atomic_fetch_inc']:
    ROUTES[_op] = ['fop_sum+flush', 'fop_sum+flush_local']
for _op in ['atomic_add', 'atomic_inc']:
    ROUTES[_op] = ['acc_sum_post']
for _op in ['atomic_fetch_and', 'atomic_fetch_or', 'atomic_fetch_xor']:
    ROUTES[_op] = ['fop_band+flush', 'fop_band+flush_local']
for _op in ['atomic_and', 'atomic_or', 'atomic_xor']:
    ROUTES[_op] = ['acc_band_post']

# Rows whose floor has the row's own name, in these floor kinds.
SAME_NAME = {
    'put_bw_4096B': ['floor_create', 'floor_allocate'],
    'get_bw_4096B': ['floor_create', 'floor_allocate'],
    'put_bw_1048576B': ['floor_create', 'floor_allocate'],
    'get_bw_1048576B': ['floor_create', 'floor_allocate'],
    'barrier_all': ['floor_coll'],
    'broadcast64_8B+barrier': ['floor_coll'],
    'sum_to_all_8B+barrier': ['floor_coll'],
    'fcollect64_8B+barrier': ['floor_coll'],
}


def floor_keys(target, op):
    """The (floor kind, route) pairs whose fastest is the floor of
    (target, op): the created window's for global data, either window's
    for the heap."""
    if op in SAME_NAME:
        kinds = SAME_NAME[op]
        if target != 'heap':
            kinds = [k for k in kinds if k != 'floor_allocate']
        return [(k, op) for k in kinds]
    kinds = ['floor_create'] + (['floor_allocate'] if target == 'heap' else [])
    return [(k, r) for k in kinds for r in ROUTES.get(op, [])]
