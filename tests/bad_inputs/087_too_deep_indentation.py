# case: more than 100 levels of indentation (CPython's limit)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 110:401: TileSyntaxError: indentation
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    if bid > 0:
        if bid > 1:
            if bid > 2:
                if bid > 3:
                    if bid > 4:
                        if bid > 5:
                            if bid > 6:
                                if bid > 7:
                                    if bid > 8:
                                        if bid > 9:
                                            if bid > 10:
                                                if bid > 11:
                                                    if bid > 12:
                                                        if bid > 13:
                                                            if bid > 14:
                                                                if bid > 15:
                                                                    if bid > 16:
                                                                        if bid > 17:
                                                                            if bid > 18:
                                                                                if bid > 19:
                                                                                    if bid > 20:
                                                                                        if bid > 21:
                                                                                            if bid > 22:
                                                                                                if bid > 23:
                                                                                                    if bid > 24:
                                                                                                        if bid > 25:
                                                                                                            if bid > 26:
                                                                                                                if bid > 27:
                                                                                                                    if bid > 28:
                                                                                                                        if bid > 29:
                                                                                                                            if bid > 30:
                                                                                                                                if bid > 31:
                                                                                                                                    if bid > 32:
                                                                                                                                        if bid > 33:
                                                                                                                                            if bid > 34:
                                                                                                                                                if bid > 35:
                                                                                                                                                    if bid > 36:
                                                                                                                                                        if bid > 37:
                                                                                                                                                            if bid > 38:
                                                                                                                                                                if bid > 39:
                                                                                                                                                                    if bid > 40:
                                                                                                                                                                        if bid > 41:
                                                                                                                                                                            if bid > 42:
                                                                                                                                                                                if bid > 43:
                                                                                                                                                                                    if bid > 44:
                                                                                                                                                                                        if bid > 45:
                                                                                                                                                                                            if bid > 46:
                                                                                                                                                                                                if bid > 47:
                                                                                                                                                                                                    if bid > 48:
                                                                                                                                                                                                        if bid > 49:
                                                                                                                                                                                                            if bid > 50:
                                                                                                                                                                                                                if bid > 51:
                                                                                                                                                                                                                    if bid > 52:
                                                                                                                                                                                                                        if bid > 53:
                                                                                                                                                                                                                            if bid > 54:
                                                                                                                                                                                                                                if bid > 55:
                                                                                                                                                                                                                                    if bid > 56:
                                                                                                                                                                                                                                        if bid > 57:
                                                                                                                                                                                                                                            if bid > 58:
                                                                                                                                                                                                                                                if bid > 59:
                                                                                                                                                                                                                                                    if bid > 60:
                                                                                                                                                                                                                                                        if bid > 61:
                                                                                                                                                                                                                                                            if bid > 62:
                                                                                                                                                                                                                                                                if bid > 63:
                                                                                                                                                                                                                                                                    if bid > 64:
                                                                                                                                                                                                                                                                        if bid > 65:
                                                                                                                                                                                                                                                                            if bid > 66:
                                                                                                                                                                                                                                                                                if bid > 67:
                                                                                                                                                                                                                                                                                    if bid > 68:
                                                                                                                                                                                                                                                                                        if bid > 69:
                                                                                                                                                                                                                                                                                            if bid > 70:
                                                                                                                                                                                                                                                                                                if bid > 71:
                                                                                                                                                                                                                                                                                                    if bid > 72:
                                                                                                                                                                                                                                                                                                        if bid > 73:
                                                                                                                                                                                                                                                                                                            if bid > 74:
                                                                                                                                                                                                                                                                                                                if bid > 75:
                                                                                                                                                                                                                                                                                                                    if bid > 76:
                                                                                                                                                                                                                                                                                                                        if bid > 77:
                                                                                                                                                                                                                                                                                                                            if bid > 78:
                                                                                                                                                                                                                                                                                                                                if bid > 79:
                                                                                                                                                                                                                                                                                                                                    if bid > 80:
                                                                                                                                                                                                                                                                                                                                        if bid > 81:
                                                                                                                                                                                                                                                                                                                                            if bid > 82:
                                                                                                                                                                                                                                                                                                                                                if bid > 83:
                                                                                                                                                                                                                                                                                                                                                    if bid > 84:
                                                                                                                                                                                                                                                                                                                                                        if bid > 85:
                                                                                                                                                                                                                                                                                                                                                            if bid > 86:
                                                                                                                                                                                                                                                                                                                                                                if bid > 87:
                                                                                                                                                                                                                                                                                                                                                                    if bid > 88:
                                                                                                                                                                                                                                                                                                                                                                        if bid > 89:
                                                                                                                                                                                                                                                                                                                                                                            if bid > 90:
                                                                                                                                                                                                                                                                                                                                                                                if bid > 91:
                                                                                                                                                                                                                                                                                                                                                                                    if bid > 92:
                                                                                                                                                                                                                                                                                                                                                                                        if bid > 93:
                                                                                                                                                                                                                                                                                                                                                                                            if bid > 94:
                                                                                                                                                                                                                                                                                                                                                                                                if bid > 95:
                                                                                                                                                                                                                                                                                                                                                                                                    if bid > 96:
                                                                                                                                                                                                                                                                                                                                                                                                        if bid > 97:
                                                                                                                                                                                                                                                                                                                                                                                                            if bid > 98:
                                                                                                                                                                                                                                                                                                                                                                                                                t = t + 1.0
    ct.store(b, index=(bid,), tile=t)
