package web

import "github.com/go-codemode/codemode/internal/snapshot"

// SnapshotTypes registers the types of this package that a saved run's
// heap holds: URLs, search params, headers, responses, byte arrays,
// text codecs and their iterators.
func SnapshotTypes(reg *snapshot.Registry) {
	snapshot.Register[*urlData](reg, "web.urlData")
	snapshot.Register[*paramsData](reg, "web.paramsData")
	snapshot.Register[*headersData](reg, "web.headersData")
	snapshot.Register[*listIter](reg, "web.listIter")
	snapshot.Register[*u8Data](reg, "web.u8Data")
	snapshot.Register[textEncoderData](reg, "web.textEncoderData")
	snapshot.Register[*textDecoderData](reg, "web.textDecoderData")
	snapshot.Register[*responseData](reg, "web.responseData")
}
