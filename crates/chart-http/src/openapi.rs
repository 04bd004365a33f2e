//! `GET /openapi.json`: an OpenAPI 3.1 document of every route ([`crate::Route`]), option,
//! header and error. The integration test `openapi` checks its paths against the router both
//! ways and requests every documented operation from a real server.

use crate::quickchart::{
    QUICKCHART_BACKGROUND, QUICKCHART_DEVICE_PIXEL_RATIO, QUICKCHART_HEIGHT, QUICKCHART_WIDTH,
};
use crate::MAX_BODY_BYTES;
use chart_raster::spec::request::{
    DEFAULT_BACKGROUND_COLOR, DEFAULT_DEVICE_PIXEL_RATIO, DEFAULT_HEIGHT, DEFAULT_QUALITY,
    DEFAULT_WIDTH, MAX_DEVICE_PIXEL_RATIO, MAX_HEIGHT, MAX_WIDTH,
};
use chart_raster::VERSION;
use serde_json::{json, Value};

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    })
}

/// The responses every render route shares.
fn render_responses() -> Value {
    json!({
        "200": {
            "description": "The image.",
            "headers": {
                "X-Cache-Hash": {"$ref": "#/components/headers/X-Cache-Hash"},
                "X-Cache-Url": {"$ref": "#/components/headers/X-Cache-Url"},
                "X-Cache-Hit": {"$ref": "#/components/headers/X-Cache-Hit"},
                "X-Chart-Messages": {"$ref": "#/components/headers/X-Chart-Messages"},
                "X-Request-Id": {"$ref": "#/components/headers/X-Request-Id"},
                "X-Powered-By": {"$ref": "#/components/headers/X-Powered-By"}
            },
            "content": {
                "image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}},
                "image/jpeg": {"schema": {"type": "string", "contentMediaType": "image/jpeg"}},
                "image/webp": {"schema": {"type": "string", "contentMediaType": "image/webp"}},
                "image/svg+xml": {"schema": {"type": "string", "contentMediaType": "image/svg+xml"}},
                "application/pdf": {"schema": {"type": "string", "contentMediaType": "application/pdf"}}
            }
        },
        "400": error_response("Invalid request: malformed JSON, a bad option, a size or input budget exceeded (the message names the limit and its variable), or format svg or pdf with engine browser."),
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "405": {"$ref": "#/components/responses/MethodNotAllowed"},
        "408": error_response("The body did not arrive in full within BODY_READ_TIMEOUT_SECONDS of the request head; the connection closes."),
        "413": error_response("The body is over 10 MiB."),
        "500": error_response("The engine or encoder failed, or a bug: the message carries the request id; the detail is in the log."),
        "503": {
            "description": "Every render slot is busy and MAX_PENDING requests wait or the waiting requests' parsed input would exceed MAX_PENDING_BYTES, MAX_CONNECTIONS connections are already open, the service is shutting down, or the browser engine cannot run.",
            "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds (for a full queue or a shutdown)."}},
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
        },
        "504": error_response("The render took longer than MAX_RENDER_TIME_SECONDS; it is stopped.")
    })
}

fn query_param(name: &str, description: &str, schema: Value) -> Value {
    json!({"name": name, "in": "query", "required": false, "description": description, "schema": schema})
}

/// The OpenAPI 3.1 document.
pub fn document() -> Value {
    let api_key_query = query_param(
        "api_key",
        "The API key, when one is set (also as `Authorization: Bearer` or `X-API-Key`).",
        json!({"type": "string"}),
    );
    let render_query = vec![
        query_param(
            "chart",
            "The Chart.js config as URL-encoded JSON. Required.",
            json!({"type": "string"}),
        ),
        query_param(
            "width",
            "CSS pixels.",
            json!({"type": "number", "exclusiveMinimum": 0, "maximum": MAX_WIDTH, "default": DEFAULT_WIDTH}),
        ),
        query_param(
            "height",
            "CSS pixels.",
            json!({"type": "number", "exclusiveMinimum": 0, "maximum": MAX_HEIGHT, "default": DEFAULT_HEIGHT}),
        ),
        query_param(
            "devicePixelRatio",
            "The bitmap is width·dpr × height·dpr.",
            json!({"type": "number", "exclusiveMinimum": 0, "maximum": MAX_DEVICE_PIXEL_RATIO, "default": DEFAULT_DEVICE_PIXEL_RATIO}),
        ),
        query_param(
            "backgroundColor",
            "Any CSS colour.",
            json!({"type": "string", "default": DEFAULT_BACKGROUND_COLOR}),
        ),
        query_param("format", "", json!({"$ref": "#/components/schemas/Format"})),
        query_param(
            "quality",
            "JPEG and WebP.",
            json!({"type": "number", "minimum": 0, "maximum": 100, "default": DEFAULT_QUALITY}),
        ),
        query_param("engine", "", json!({"$ref": "#/components/schemas/Engine"})),
        api_key_query.clone(),
    ];
    let chart_query = vec![
        query_param(
            "c",
            "The Chart.js config: JSON or a JavaScript object literal (JSON5: unquoted keys, single quotes, trailing commas, comments). Functions are not evaluated: they are left out and reported in X-Chart-Messages. Required (as `c` or `chart`).",
            json!({"type": "string"}),
        ),
        query_param("chart", "Same as `c`.", json!({"type": "string"})),
        query_param(
            "w",
            "Width, CSS pixels (also `width`).",
            json!({"type": "number", "default": QUICKCHART_WIDTH}),
        ),
        query_param("width", "Same as `w`.", json!({"type": "number"})),
        query_param(
            "h",
            "Height, CSS pixels (also `height`).",
            json!({"type": "number", "default": QUICKCHART_HEIGHT}),
        ),
        query_param("height", "Same as `h`.", json!({"type": "number"})),
        query_param(
            "devicePixelRatio",
            "",
            json!({"type": "number", "default": QUICKCHART_DEVICE_PIXEL_RATIO}),
        ),
        query_param(
            "bkg",
            "Background, any CSS colour (also `backgroundColor`).",
            json!({"type": "string", "default": QUICKCHART_BACKGROUND}),
        ),
        query_param("backgroundColor", "Same as `bkg`.", json!({"type": "string"})),
        query_param(
            "f",
            "png, jpg (jpeg), webp, svg, pdf, or base64 (the PNG as a `data:image/png;base64,` URL, text/plain) (also `format`). svg and pdf are vector files at the CSS size, skia engine only.",
            json!({"type": "string", "enum": ["png", "jpg", "jpeg", "webp", "svg", "pdf", "base64"], "default": "png"}),
        ),
        query_param("format", "Same as `f`.", json!({"type": "string"})),
        query_param(
            "v",
            "Chart.js version (also `version`). Chart.js 4 renders; another version is reported in X-Chart-Messages.",
            json!({"type": "string"}),
        ),
        query_param("version", "Same as `v`.", json!({"type": "string"})),
        query_param(
            "encoding",
            "`base64`: the chart parameter is base64 (standard or URL-safe).",
            json!({"type": "string", "enum": ["url", "base64"], "default": "url"}),
        ),
        query_param(
            "key",
            "The API key, when one is set (QuickChart's name; `api_key` and the headers work too).",
            json!({"type": "string"}),
        ),
        query_param(
            "quality",
            "JPEG and WebP.",
            json!({"type": "number", "default": DEFAULT_QUALITY}),
        ),
        query_param("engine", "", json!({"$ref": "#/components/schemas/Engine"})),
        api_key_query.clone(),
    ];
    let mut chart_responses = render_responses();
    chart_responses["200"]["content"]["text/plain"] = json!({
        "schema": {"type": "string", "description": "format=base64: data:image/png;base64,<the PNG>"}
    });
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "chart-raster",
            "version": VERSION,
            "description": "Chart.js configs rendered to PNG, JPEG or WebP by a native engine (skia) or real Chart.js in headless Chromium (browser). Every response carries X-Powered-By and X-Request-Id; every error is {\"error\": \"<message>\"}."
        },
        "security": [{}, {"bearer": []}, {"apiKeyHeader": []}, {"apiKeyQuery": []}],
        "paths": {
            "/render": {
                "get": {
                    "summary": "Render a chart from query parameters.",
                    "parameters": render_query,
                    "responses": render_responses()
                },
                "post": {
                    "summary": "Render a chart from a JSON body.",
                    "parameters": [api_key_query],
                    "requestBody": {
                        "required": true,
                        "description": format!("At most {MAX_BODY_BYTES} bytes."),
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RenderRequest"}}}
                    },
                    "responses": render_responses()
                }
            },
            "/chart": {
                "get": {
                    "summary": "QuickChart-compatible render. QuickChart's defaults apply (500×300, dpr 2, transparent); the same options as a /render request share its hash and cache entry.",
                    "parameters": chart_query,
                    "responses": chart_responses.clone()
                },
                "post": {
                    "summary": "QuickChart-compatible render from a JSON body with the same fields as GET /chart (`chart` an object, or a string of JSON or a JavaScript literal).",
                    "requestBody": {
                        "required": true,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/QuickChartRequest"}}}
                    },
                    "responses": chart_responses
                }
            },
            "/cache/{hash}": {
                "get": {
                    "summary": "A cached image by its request hash (X-Cache-Hash).",
                    "parameters": [
                        {"name": "hash", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[0-9a-f]{16}$"}}
                    ],
                    "responses": {
                        "200": {
                            "description": "The image, with Cache-Control: public, max-age=3600.",
                            "content": {"image/png": {}, "image/jpeg": {}, "image/webp": {}, "image/svg+xml": {}, "application/pdf": {}}
                        },
                        "401": {"$ref": "#/components/responses/Unauthorized"},
                        "404": error_response("Cache miss - image not found or expired")
                    }
                }
            },
            "/examples": {
                "get": {
                    "summary": "The gallery: every built-in example rendered live.",
                    "responses": {
                        "200": {"description": "An HTML page (Cache-Control: no-store when it embeds the key).", "content": {"text/html": {}}},
                        "401": {"$ref": "#/components/responses/Unauthorized"}
                    }
                }
            },
            "/health": {
                "get": {
                    "summary": "Liveness and state; never needs the key.",
                    "security": [{}],
                    "responses": {
                        "200": {"description": "Always while the process answers.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}}}
                    }
                }
            },
            "/metrics": {
                "get": {
                    "summary": "Prometheus text format (0.0.4): renders by engine/format/outcome, render seconds, cache, queue, browser restarts, HTTP requests by route and status.",
                    "responses": {
                        "200": {"description": "The exposition.", "content": {"text/plain; version=0.0.4; charset=utf-8": {"schema": {"type": "string"}}}},
                        "401": {"$ref": "#/components/responses/Unauthorized"}
                    }
                }
            },
            "/openapi.json": {
                "get": {
                    "summary": "This document; never needs the key.",
                    "security": [{}],
                    "responses": {
                        "200": {"description": "OpenAPI 3.1.", "content": {"application/json": {}}}
                    }
                }
            }
        },
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "apiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                "apiKeyQuery": {"type": "apiKey", "in": "query", "name": "api_key"}
            },
            "headers": {
                "X-Cache-Hash": {"description": "The request hash: 16 lowercase hex characters.", "schema": {"type": "string"}},
                "X-Cache-Url": {"description": "<base>/cache/<hash>; base is PUBLIC_URL, or with TRUST_PROXY=1 the forwarded scheme and host, or the address the client reached.", "schema": {"type": "string"}},
                "X-Cache-Hit": {"description": "true when served from the cache.", "schema": {"type": "string", "enum": ["true", "false"]}},
                "X-Chart-Messages": {"description": "When something was reported: a JSON array of {level, message}; printable ASCII, at most 8 KiB.", "schema": {"type": "string"}},
                "X-Request-Id": {"description": "The request's own X-Request-Id (1-128 letters, digits and -_.:), else 16 generated hex characters; also in the log line.", "schema": {"type": "string"}},
                "X-Powered-By": {"description": "chart-raster/<version>", "schema": {"type": "string"}}
            },
            "responses": {
                "Unauthorized": {
                    "description": "A key is set and the request has none or a wrong one.",
                    "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}},
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
                },
                "MethodNotAllowed": error_response("Method not allowed")
            },
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {"error": {"type": "string"}},
                    "additionalProperties": false
                },
                "Format": {"type": "string", "enum": ["png", "jpeg", "jpg", "webp", "svg", "pdf"], "default": "png", "description": "svg and pdf are written from the skia engine's display list (engine browser: 400), at the CSS size (1 px = 1 SVG user unit = 0.75 pt); devicePixelRatio and quality do not apply to them."},
                "Engine": {"type": "string", "enum": ["skia", "browser"], "default": "skia"},
                "RenderRequest": {
                    "type": "object",
                    "required": ["chart"],
                    "properties": {
                        "chart": {"type": "object", "description": "The Chart.js config (type, data, options)."},
                        "width": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_WIDTH, "default": DEFAULT_WIDTH},
                        "height": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_HEIGHT, "default": DEFAULT_HEIGHT},
                        "devicePixelRatio": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_DEVICE_PIXEL_RATIO, "default": DEFAULT_DEVICE_PIXEL_RATIO},
                        "backgroundColor": {"type": "string", "default": DEFAULT_BACKGROUND_COLOR},
                        "format": {"$ref": "#/components/schemas/Format"},
                        "quality": {"type": "number", "minimum": 0, "maximum": 100, "default": DEFAULT_QUALITY},
                        "engine": {"$ref": "#/components/schemas/Engine"}
                    }
                },
                "QuickChartRequest": {
                    "type": "object",
                    "description": "Long or short names (chart/c, width/w, height/h, backgroundColor/bkg, format/f, version/v); numbers may be strings.",
                    "properties": {
                        "chart": {"oneOf": [{"type": "object"}, {"type": "string"}]},
                        "width": {"type": ["number", "string"], "default": QUICKCHART_WIDTH},
                        "height": {"type": ["number", "string"], "default": QUICKCHART_HEIGHT},
                        "devicePixelRatio": {"type": ["number", "string"], "default": QUICKCHART_DEVICE_PIXEL_RATIO},
                        "backgroundColor": {"type": "string", "default": QUICKCHART_BACKGROUND},
                        "format": {"type": "string", "enum": ["png", "jpg", "jpeg", "webp", "svg", "pdf", "base64"]},
                        "version": {"type": "string"},
                        "encoding": {"type": "string", "enum": ["url", "base64"]},
                        "key": {"type": "string"},
                        "quality": {"type": ["number", "string"]},
                        "engine": {"$ref": "#/components/schemas/Engine"}
                    }
                },
                "Health": {
                    "type": "object",
                    "properties": {
                        "status": {"const": "ok"},
                        "version": {"type": "string"},
                        "renderer": {
                            "type": "object",
                            "properties": {
                                "browserConnected": {"type": "boolean"},
                                "concurrency": {
                                    "type": "object",
                                    "properties": {
                                        "max": {"type": "integer"},
                                        "active": {"type": "integer"},
                                        "pending": {"type": "integer"},
                                        "maxPending": {"type": "integer"}
                                    }
                                },
                                "activePages": {"type": "integer"},
                                "pageTimeoutSeconds": {"type": "integer"}
                            }
                        },
                        "cache": {
                            "type": "object",
                            "properties": {
                                "size": {"type": "integer"},
                                "maxEntries": {"type": "integer"},
                                "ttlSeconds": {"type": "integer"},
                                "backend": {"type": "string", "enum": ["memory", "redis"], "description": "redis when CACHE_URL is set: the cache shared by every replica"},
                                "connected": {"type": "boolean", "description": "Always true for memory; for redis, whether it is connected (while not, the cache is this replica's memory and renders go on)"}
                            }
                        }
                    }
                }
            }
        }
    })
}
