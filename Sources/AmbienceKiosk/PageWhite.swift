import AmbienceCore

/// The display's white on the kiosk's pages: every pixel's linear-light red, green and blue
/// multiplied by the white's gains, as a panel's own gains would.
///
/// A stylesheet the page never sees in its DOM (`document.adoptedStyleSheets`) gives the root
/// element an `::after` box over the viewport that filters what is behind it
/// (`backdrop-filter`, an SVG `feColorMatrix` in linear RGB): `position: fixed`,
/// `pointer-events: none`, the highest z-index, painted last. So nothing is laid out anew,
/// clicks and touches go through to the page, and the page's own fixed elements stay as they
/// were (a `filter` on the root would do the same, but neither filters the canvas: the
/// background the root or body gives the whole window). So an `::before` box below everything
/// paints the canvas's colour inside the page, looked up again when the page's colour scheme,
/// contrast, or the root's or body's class or style change. Only the browser's top layer (a
/// fullscreen element, an open `<dialog>`) is above the white.
public enum PageWhite {
    /// The window property the sheet is kept under, so that a second run updates it.
    static let property = "__ambienceWhite"

    /// A script for the top frame of a page, at its start or later: the white's gains, or none
    /// for nil (the native white, or no white point any more).
    public static func script(_ gains: DisplayGains?) -> String {
        var rules = ""
        if let gains, gains != .unity {
            let (red, green, blue) = (
                EventLine.number(gains.red), EventLine.number(gains.green), EventLine.number(gains.blue)
            )
            let matrix = "\(red) 0 0 0 0 0 \(green) 0 0 0 0 0 \(blue) 0 0 0 0 0 1 0"
            let filter =
                "data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27%3E%3Cfilter id=%27w%27"
                + " color-interpolation-filters=%27linearRGB%27%3E%3CfeColorMatrix type=%27matrix%27"
                + " values=%27\(matrix)%27/%3E%3C/filter%3E%3C/svg%3E#w"
            let box = "content:\"\";position:fixed;inset:0;pointer-events:none;"
            rules =
                "html::before{\(box)z-index:-2147483648;background:CANVAS}"
                + "html::after{\(box)z-index:2147483647;backdrop-filter:url(\"\(filter)\")}"
        }
        return "(()=>{if(window!==window.top)return;let w=window.\(property);if(!w){"
            + "const s=new CSSStyleSheet();document.adoptedStyleSheets=[...document.adoptedStyleSheets,s];"
            + "const none='rgba(0, 0, 0, 0)';const seen=new WeakSet();"
            + "const canvas=()=>{for(const e of[document.documentElement,document.body]){"
            + "const c=e?getComputedStyle(e).backgroundColor:none;if(c!==none)return c}return'white'};"
            + "w={rules:'',paint:()=>{s.replaceSync(w.rules.replace('CANVAS',canvas()));"
            + "for(const e of[document.documentElement,document.body])if(e&&!seen.has(e)){seen.add(e);"
            + "new MutationObserver(w.paint).observe(e,{attributes:true,attributeFilter:['class','style']})}}};"
            + "Object.defineProperty(window,'\(property)',{value:w});"
            + "for(const q of['(prefers-color-scheme: dark)','(prefers-contrast: more)','(forced-colors: active)'])"
            + "matchMedia(q).addEventListener('change',w.paint);"
            + "document.addEventListener('DOMContentLoaded',w.paint);addEventListener('load',w.paint)}"
            + "w.rules='\(rules)';w.paint()})()"
    }
}
