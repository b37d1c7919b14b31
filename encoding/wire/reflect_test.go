package wire

import "reflect"

// reflectNew returns a new zero value of the type msg points to.
func reflectNew(msg any) any { return reflect.New(reflect.TypeOf(msg).Elem()).Interface() }
