"""Embedding lookup: out[t, :] = table[ids[t], :], or zeros where ids[t] == pad_id.

Block (i, j) handles tokens [i*TT, (i+1)*TT) and columns [j*TD, (j+1)*TD). The token ids come
from a 1-D gather; the rows of the table from a 2-D gather whose indices broadcast a (TT, 1)
column of ids against a (1, TD) row of column numbers. The mask skips padding tokens (their
lanes read 0), and ids outside the table read 0 too (gather's bounds check). The scatter drops
lanes past the last token or column.

Launch: grid = (ct.cdiv(n_tokens, TT), ct.cdiv(dim, TD))
"""
import cuda.tile as ct


@ct.kernel
def embedding(ids, table, out, pad_id: int, TT: ct.Constant[int], TD: ct.Constant[int]):
    tokens = ct.bid(0) * TT + ct.arange(TT, dtype=ct.int32)
    cols = ct.bid(1) * TD + ct.arange(TD, dtype=ct.int32)
    row_ids = ct.gather(ids, tokens, padding_value=pad_id)
    keep = row_ids[:, None] != pad_id
    rows = ct.gather(table, (row_ids[:, None], cols[None, :]), mask=keep, padding_value=0)
    ct.scatter(out, (tokens[:, None], cols[None, :]), rows)
