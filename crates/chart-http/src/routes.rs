//! The routes the server has, as data: the router dispatches on [`Route`], and the OpenAPI
//! document's test compares its paths with [`Route::ALL`], so neither can drift from the other.

/// One route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// `GET|POST /render`.
    Render,
    /// `GET|POST /chart` (QuickChart's request shape).
    Chart,
    /// `GET /cache/<hash>`.
    Cache,
    /// `GET /examples`.
    Examples,
    /// `GET /health`.
    Health,
    /// `GET /metrics`.
    Metrics,
    /// `GET /openapi.json`.
    OpenApi,
}

impl Route {
    /// Every route.
    pub const ALL: [Route; 7] = [
        Route::Render,
        Route::Chart,
        Route::Cache,
        Route::Examples,
        Route::Health,
        Route::Metrics,
        Route::OpenApi,
    ];

    /// The route serving `path`, if any.
    pub fn of(path: &str) -> Option<Route> {
        Some(match path {
            "/render" => Route::Render,
            "/chart" => Route::Chart,
            "/examples" => Route::Examples,
            "/health" => Route::Health,
            "/metrics" => Route::Metrics,
            "/openapi.json" => Route::OpenApi,
            p if p.starts_with("/cache/") => Route::Cache,
            _ => return None,
        })
    }

    /// The path as OpenAPI writes it (`/cache/{hash}`).
    pub fn template(self) -> &'static str {
        match self {
            Route::Render => "/render",
            Route::Chart => "/chart",
            Route::Cache => "/cache/{hash}",
            Route::Examples => "/examples",
            Route::Health => "/health",
            Route::Metrics => "/metrics",
            Route::OpenApi => "/openapi.json",
        }
    }

    /// The methods it answers (HEAD goes with GET everywhere and is not listed).
    pub fn methods(self) -> &'static [&'static str] {
        match self {
            Route::Render | Route::Chart => &["GET", "POST"],
            _ => &["GET"],
        }
    }

    /// Whether it takes `method`.
    pub fn allows(self, method: &hyper::Method) -> bool {
        let m = if method == hyper::Method::HEAD {
            "GET"
        } else {
            method.as_str()
        };
        self.methods().contains(&m)
    }

    /// It needs the API key, when one is set. `/health` (for probes) and `/openapi.json`
    /// (it describes the service, nothing of its data) never do.
    pub fn needs_key(self) -> bool {
        !matches!(self, Route::Health | Route::OpenApi)
    }

    /// The `route` label of `/metrics` (no braces: some Prometheus text parsers end a label
    /// set at the first `}`).
    pub fn label(self) -> &'static str {
        match self {
            Route::Cache => "/cache/<hash>",
            r => r.template(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_finds_itself() {
        for r in Route::ALL {
            let example = r.template().replace("{hash}", "0123456789abcdef");
            assert_eq!(Route::of(&example), Some(r));
        }
        assert_eq!(Route::of("/render/"), None);
        assert_eq!(Route::of("/"), None);
    }
}
