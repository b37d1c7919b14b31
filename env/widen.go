package env

// widen writes src's bytes into dst as float32s: a float32 env's
// observation row. Eight at a time through a table, which runs about 1.5×
// as fast as a float32(x) conversion per byte (the conversions wait on one
// another; the table's loads do not).
func widen(dst []float32, src []uint8) {
	dst = dst[:len(src)]
	k := 0
	for ; k+8 <= len(src); k += 8 {
		s, d := src[k:k+8:k+8], dst[k:k+8:k+8]
		d[0], d[1], d[2], d[3] = byteFloats[s[0]], byteFloats[s[1]], byteFloats[s[2]], byteFloats[s[3]]
		d[4], d[5], d[6], d[7] = byteFloats[s[4]], byteFloats[s[5]], byteFloats[s[6]], byteFloats[s[7]]
	}
	for ; k < len(src); k++ {
		dst[k] = byteFloats[src[k]]
	}
}

// byteFloats[b] is float32(b).
var byteFloats = func() (t [256]float32) {
	for b := range t {
		t[b] = float32(b)
	}
	return t
}()
