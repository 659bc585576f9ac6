import NetworkActivityInterface

// Short names for where the service lives, which nearly every test uses.
let busName = ServiceNames.busName
let objectPath = ServiceNames.objectPath
let interfaceName = ServiceNames.interface
