//! The status page at `/`: one HTML file, its CSS and its JavaScript,
//! compiled into the binary (`include_str!`), so the page works on a
//! machine without internet access and always matches the broker's API.
//! The page holds no data itself: its script polls `/v1/cluster/health`,
//! `/v1/brokers`, `/v1/topics` and `/v1/groups` and keeps the last minutes
//! of readings in memory for the throughput and lag charts.

use super::routes::Reply;

/// Sent with the HTML: scripts, styles, images and requests only from
/// this server (no inline script or style; the charts are SVG elements
/// built through the DOM, which the policy allows).
pub const CONTENT_SECURITY_POLICY: &str = "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r\n";

const HTML: &str = include_str!("status_page/index.html");
const CSS: &str = include_str!("status_page/status.css");
const JS: &str = include_str!("status_page/status.js");

/// One of the page's files.
#[derive(Debug, Clone, Copy)]
pub enum Asset {
    Html,
    Css,
    Js,
}

/// The file with its content type.
pub fn asset(which: Asset) -> Reply {
    let (content_type, body) = match which {
        Asset::Html => ("text/html; charset=utf-8", HTML),
        Asset::Css => ("text/css; charset=utf-8", CSS),
        Asset::Js => ("text/javascript; charset=utf-8", JS),
    };
    (200, content_type, body.as_bytes().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page loads nothing from elsewhere: every reference is local.
    #[test]
    fn the_page_references_only_its_own_files() {
        for text in [HTML, CSS, JS] {
            // The SVG namespace is a name, never fetched.
            let text = text.replace("\"http://www.w3.org/2000/svg\"", "");
            assert!(!text.contains("http://"), "a remote URL in the page");
            assert!(!text.contains("https://"), "a remote URL in the page");
            assert!(!text.contains("//cdn"), "a CDN in the page");
        }
        assert!(HTML.contains("src=\"status.js\""));
        assert!(HTML.contains("href=\"status.css\""));
        // The policy forbids inline script and style: none may be used.
        assert!(!HTML.contains("<script>"));
        assert!(!HTML.contains("style=\""));
        assert!(!HTML.contains("<style"));
        for endpoint in [
            // Relative, so the page also works behind a path prefix.
            "\"v1/cluster/health\"",
            "\"v1/brokers\"",
            "\"v1/topics\"",
            "\"v1/groups\"",
        ] {
            assert!(JS.contains(endpoint), "the page does not poll {endpoint}");
        }
    }
}
