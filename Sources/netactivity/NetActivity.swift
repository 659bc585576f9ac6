// SPDX-License-Identifier: Apache-2.0
import NetActivityCommand

@main
enum NetActivity {
    static func main() {
        EntryPoint.main()
    }
}
