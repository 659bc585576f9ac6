import NetActivityCommand

@main
enum NetActivity {
    static func main() {
        EntryPoint.main()
    }
}
