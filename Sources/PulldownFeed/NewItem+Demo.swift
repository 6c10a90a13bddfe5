/// Demo items made on request (the demo control API's "add items now").
extension NewItem {
    /// A plausible demo item; `number` picks its text, the same text for the same number.
    public static func demo(number: Int64) -> NewItem {
        let text = DemoContent.text(number: number)
        return NewItem(title: text.title, body: text.body, author: text.author)
    }
}
