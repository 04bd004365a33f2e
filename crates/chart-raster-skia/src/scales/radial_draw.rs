//! Drawing of the `radialLinear` scale (scale.radialLinear.js `drawBackground`, `drawGrid`,
//! `drawLabels`, `drawPointLabels`) into display-list items, from resolved styles.

use super::radial_geometry::{PointLabelItem, RadialGeometry};
use crate::scene::{
    Item, ItemList, Paint, Path, Stroke, TextAlign, TextBaseline, TextDirection, TextItem,
    Transform,
};
use chart_spec::font::FontSpec;
use chart_spec::values::{Corners, Sides};
use chart_spec::Rgba;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// A stroke style (grid circles, angle lines).
#[derive(Debug, Clone, PartialEq)]
pub struct LineStyle {
    /// `color`.
    pub color: Rgba,
    /// `lineWidth`.
    pub width: f64,
    /// `borderDash` (`border.dash` for grid circles).
    pub dash: Vec<f32>,
    /// `borderDashOffset` (`border.dashOffset` for grid circles).
    pub dash_offset: f32,
}

/// Resolved `pointLabels` options at one index.
#[derive(Debug, Clone, PartialEq)]
pub struct PointLabelStyle {
    /// `font`. Default size: 10.
    pub font: FontSpec,
    /// `color`. Default: `Chart.defaults.color`.
    pub color: Rgba,
    /// `backdropColor`. Default: undefined (no box).
    pub backdrop_color: Option<Rgba>,
    /// `backdropPadding`. Default: 2.
    pub backdrop_padding: Sides,
    /// `borderRadius` of the box. Default: 0.
    pub border_radius: Corners,
}

/// Resolved `ticks` options at one tick index.
#[derive(Debug, Clone, PartialEq)]
pub struct TickLabelStyle {
    /// `font`.
    pub font: FontSpec,
    /// `color`.
    pub color: Rgba,
    /// `showLabelBackdrop`. Default: true.
    pub show_backdrop: bool,
    /// `backdropColor`. Default: `'rgba(255, 255, 255, 0.75)'`.
    pub backdrop_color: Rgba,
    /// `backdropPadding`. Default: 2.
    pub backdrop_padding: Sides,
    /// `textStrokeColor`/`textStrokeWidth`. Default: none.
    pub stroke: Option<(Rgba, f64)>,
}

/// A tick of the radial scale.
#[derive(Debug, Clone, PartialEq)]
pub struct RadialTick {
    /// Value.
    pub value: f64,
    /// Label lines (several for array labels).
    pub label: Vec<String>,
}

fn solid(c: Rgba) -> Paint {
    Paint::Solid(c)
}

/// `pathRadiusLine`: a circle, or the polygon through every index at `radius`.
fn radius_path(g: &RadialGeometry, radius: f64, circular: bool, count: usize) -> Path {
    let mut p = Path::new();
    if circular {
        p.arc(
            g.x_center as f32,
            g.y_center as f32,
            radius as f32,
            0.0,
            TAU as f32,
            false,
        );
    } else {
        let (x, y, _) = g.point_position(0, radius, 0.0);
        p.move_to(x as f32, y as f32);
        for i in 1..count {
            let (x, y, _) = g.point_position(i, radius, 0.0);
            p.line_to(x as f32, y as f32);
        }
    }
    p.close();
    p
}

/// `drawBackground`: fills the outline at the end value with `backgroundColor`.
pub fn draw_background(
    g: &RadialGeometry,
    color: Option<Rgba>,
    circular: bool,
    end_value: f64,
    items: &mut ItemList,
) {
    let Some(color) = color.filter(|c| !c.is_transparent()) else {
        return;
    };
    items.push(Item::Fill {
        path: radius_path(g, g.distance_for_value(end_value), circular, g.label_count),
        paint: solid(color),
        transform: Transform::IDENTITY,
    });
}

/// `drawRadiusLine`: one grid circle or polygon.
fn draw_radius_line(
    g: &RadialGeometry,
    style: &LineStyle,
    circular: bool,
    radius: f64,
    items: &mut ItemList,
) {
    if (!circular && g.label_count == 0)
        || style.color.is_transparent()
        || style.width == 0.0
        || radius < 0.0
    {
        return;
    }
    items.push(Item::Stroke {
        path: radius_path(g, radius, circular, g.label_count),
        paint: solid(style.color),
        stroke: Stroke {
            width: style.width as f32,
            dash: style.dash.clone(),
            dash_offset: style.dash_offset,
            ..Stroke::default()
        },
        transform: Transform::IDENTITY,
    });
}

/// `addRoundedRectPath`.
fn rounded_rect(x: f64, y: f64, w: f64, h: f64, r: &Corners) -> Path {
    let mut p = Path::new();
    let f = |v: f64| v as f32;
    p.arc(
        f(x + r.top_left),
        f(y + r.top_left),
        f(r.top_left),
        f(1.5 * PI),
        f(PI),
        true,
    );
    p.line_to(f(x), f(y + h - r.bottom_left));
    p.arc(
        f(x + r.bottom_left),
        f(y + h - r.bottom_left),
        f(r.bottom_left),
        f(PI),
        f(FRAC_PI_2),
        true,
    );
    p.line_to(f(x + w - r.bottom_right), f(y + h));
    p.arc(
        f(x + w - r.bottom_right),
        f(y + h - r.bottom_right),
        f(r.bottom_right),
        f(FRAC_PI_2),
        0.0,
        true,
    );
    p.line_to(f(x + w), f(y + r.top_right));
    p.arc(
        f(x + w - r.top_right),
        f(y + r.top_right),
        f(r.top_right),
        0.0,
        f(-FRAC_PI_2),
        true,
    );
    p.line_to(f(x + r.top_left), f(y));
    p.close();
    p
}

/// `drawPointLabels`: backdrop boxes and texts, last index first.
pub fn draw_point_labels(
    labels: &[Vec<String>],
    placed: &[PointLabelItem],
    styles: &[PointLabelStyle],
    direction: TextDirection,
    items: &mut ItemList,
) {
    for i in (0..labels.len().min(placed.len())).rev() {
        let item = &placed[i];
        if !item.visible {
            continue;
        }
        let Some(style) = styles.get(i).or(styles.last()) else {
            continue;
        };
        if let Some(bg) = style.backdrop_color {
            let pad = style.backdrop_padding;
            let (x, y) = (item.left - pad.left, item.top - pad.top);
            let w = item.right - item.left + pad.left + pad.right;
            let h = item.bottom - item.top + pad.top + pad.bottom;
            let r = style.border_radius;
            let path = if r.top_left != 0.0
                || r.top_right != 0.0
                || r.bottom_left != 0.0
                || r.bottom_right != 0.0
            {
                rounded_rect(x, y, w, h, &r)
            } else {
                let mut p = Path::new();
                p.rect(x as f32, y as f32, w as f32, h as f32);
                p
            };
            if !bg.is_transparent() {
                items.push(Item::Fill {
                    path,
                    paint: solid(bg),
                    transform: Transform::IDENTITY,
                });
            }
        }
        let lh = f64::from(style.font.line_height);
        let mut y = item.y + lh / 2.0;
        for line in &labels[i] {
            items.push(Item::Text(Box::new(TextItem {
                text: line.clone(),
                x: item.x as f32,
                y: y as f32,
                font: style.font.clone(),
                paint: solid(style.color),
                align: item.align,
                baseline: TextBaseline::Middle,
                direction,
                transform: Transform::IDENTITY,
                stroke: None,
            })));
            y += lh;
        }
    }
}

/// `drawGrid` without the point labels: grid circles/polygons (skipping the first tick unless
/// the scale goes below zero) then angle lines (last index first).
pub fn draw_grid_lines(
    g: &RadialGeometry,
    ticks: &[RadialTick],
    grid: Option<(&[LineStyle], bool)>,
    angle_lines: Option<&[LineStyle]>,
    items: &mut ItemList,
) {
    if let Some((styles, circular)) = grid {
        for (index, tick) in ticks.iter().enumerate() {
            if index != 0 || g.min < 0.0 {
                let Some(style) = styles.get(index).or(styles.last()) else {
                    continue;
                };
                let offset = g.distance_for_value(tick.value);
                draw_radius_line(g, style, circular, offset, items);
            }
        }
    }
    if let Some(styles) = angle_lines {
        for i in (0..g.label_count).rev() {
            let Some(style) = styles.get(i).or(styles.last()) else {
                continue;
            };
            if style.width == 0.0 || style.color.is_transparent() {
                continue;
            }
            let offset = g.distance_for_value(if g.reverse { g.min } else { g.max });
            let (x, y, _) = g.point_position(i, offset, 0.0);
            let mut p = Path::new();
            p.move_to(g.x_center as f32, g.y_center as f32);
            p.line_to(x as f32, y as f32);
            items.push(Item::Stroke {
                path: p,
                paint: solid(style.color),
                stroke: Stroke {
                    width: style.width as f32,
                    dash: style.dash.clone(),
                    dash_offset: style.dash_offset,
                    ..Stroke::default()
                },
                transform: Transform::IDENTITY,
            });
        }
    }
}

/// `drawLabels`: tick labels along the first spoke, centred, with optional backdrops.
/// `measure` is `ctx.measureText(label).width` in the tick font.
pub fn draw_tick_labels(
    g: &RadialGeometry,
    ticks: &[RadialTick],
    styles: &[TickLabelStyle],
    measure: &dyn Fn(&FontSpec, &str) -> f64,
    direction: TextDirection,
    items: &mut ItemList,
) {
    let transform = Transform::translate(g.x_center as f32, g.y_center as f32)
        .then(Transform::rotate(g.index_angle(0) as f32));
    for (index, tick) in ticks.iter().enumerate() {
        if index == 0 && g.min >= 0.0 && !g.reverse {
            continue;
        }
        let Some(style) = styles.get(index).or(styles.last()) else {
            continue;
        };
        let offset = g.distance_for_value(tick.value);
        let size = f64::from(style.font.size);
        if style.show_backdrop {
            // Chart.js measures the label as one string (arrays are joined by commas).
            let text = tick.label.join(",");
            let width = measure(&style.font, &text);
            let pad = style.backdrop_padding;
            if !style.backdrop_color.is_transparent() {
                let mut p = Path::new();
                p.rect(
                    (-width / 2.0 - pad.left) as f32,
                    (-offset - size / 2.0 - pad.top) as f32,
                    (width + pad.left + pad.right) as f32,
                    (size + pad.top + pad.bottom) as f32,
                );
                items.push(Item::Fill {
                    path: p,
                    paint: solid(style.backdrop_color),
                    transform,
                });
            }
        }
        let lh = f64::from(style.font.line_height);
        let mut y = -offset;
        for line in &tick.label {
            let stroke = style
                .stroke
                .filter(|(c, w)| *w > 0.0 && !c.is_transparent())
                .map(|(c, w)| {
                    (
                        Stroke {
                            width: w as f32,
                            ..Stroke::default()
                        },
                        solid(c),
                    )
                });
            items.push(Item::Text(Box::new(TextItem {
                text: line.clone(),
                x: 0.0,
                y: y as f32,
                font: style.font.clone(),
                paint: solid(style.color),
                align: TextAlign::Center,
                baseline: TextBaseline::Middle,
                direction,
                transform,
                stroke,
            })));
            y += lh;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry() -> RadialGeometry {
        let mut g = RadialGeometry::set_dimensions(0.0, 0.0, 200.0, 200.0, 0.0);
        g.label_count = 5;
        g.max = 10.0;
        g
    }

    #[test]
    fn polygon_grid_and_angle_lines() {
        let g = geometry();
        let ticks: Vec<RadialTick> = (0..=5)
            .map(|v| RadialTick {
                value: f64::from(v) * 2.0,
                label: vec![format!("{}", v * 2)],
            })
            .collect();
        let style = LineStyle {
            color: Rgba {
                r: 0,
                g: 0,
                b: 0,
                a: 26,
            },
            width: 1.0,
            dash: vec![],
            dash_offset: 0.0,
        };
        let mut items = ItemList::unbounded();
        let styles = vec![style.clone()];
        draw_grid_lines(
            &g,
            &ticks,
            Some((&styles, false)),
            Some(&styles),
            &mut items,
        );
        // 5 grid polygons (first tick skipped) and 5 angle lines.
        assert_eq!(items.len(), 10);
    }

    #[test]
    fn tick_labels_skip_first() {
        let g = geometry();
        let ticks = vec![
            RadialTick {
                value: 0.0,
                label: vec!["0".into()],
            },
            RadialTick {
                value: 5.0,
                label: vec!["5".into()],
            },
        ];
        let style = TickLabelStyle {
            font: FontSpec::default(),
            color: Rgba::WHITE,
            show_backdrop: true,
            backdrop_color: Rgba::WHITE,
            backdrop_padding: Sides::all(2.0),
            stroke: None,
        };
        let mut items = ItemList::unbounded();
        draw_tick_labels(
            &g,
            &ticks,
            &[style],
            &|_, s| s.len() as f64 * 6.0,
            TextDirection::Ltr,
            &mut items,
        );
        assert_eq!(items.len(), 2);
        assert!(matches!(items[1], Item::Text(ref t) if t.text == "5" && t.y == -50.0));
    }
}
