//! The ticks and labels all the scales of one render may hold (`MAX_TOTAL_TICKS`).
//!
//! Each scale is bounded alone (`MAX_LABELS` labels, Chart.js's 1,000 generated ticks), but
//! a config may declare any number of scales over the same labels, and a category, time or
//! radial scale copies them and then formats, measures and thins a tick (or point label)
//! per label on every layout pass. The budget is shared by the scales of a render: each
//! charges the larger of the labels it holds and the ticks it builds (counted once, however
//! many times layout updates it), before the per-tick work; past the budget the scales stop
//! working, as when the render is cancelled, and the render is refused with a budget error.

use std::cell::Cell;

/// The shared count of one render's scale ticks and labels.
#[derive(Debug)]
pub struct TickBudget {
    max: usize,
    total: Cell<usize>,
}

impl TickBudget {
    /// A budget of `max` ticks and labels over all scales.
    pub fn new(max: usize) -> Self {
        Self {
            max,
            total: Cell::new(0),
        }
    }

    /// Raises a scale's count from `counted` to `n` (nothing when `n` is not larger); false
    /// once the total is over the budget.
    pub fn charge(&self, counted: &mut usize, n: usize) -> bool {
        if n > *counted {
            self.total
                .set(self.total.get().saturating_add(n - *counted));
            *counted = n;
        }
        !self.is_over()
    }

    /// The scales needed more than the budget (the total only grows, so once over, always).
    pub fn is_over(&self) -> bool {
        self.total.get() > self.max
    }
}

impl Default for TickBudget {
    /// No bound (scales built outside a render).
    fn default() -> Self {
        Self::new(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_scale_counts_its_largest_need_once() {
        let budget = TickBudget::new(10);
        let (mut a, mut b) = (0, 0);
        assert!(budget.charge(&mut a, 6));
        // Layout updates the scale again: the same ticks are not counted twice.
        assert!(budget.charge(&mut a, 6));
        assert!(budget.charge(&mut a, 2));
        assert!(budget.charge(&mut b, 4));
        assert!(!budget.is_over());
        assert!(!budget.charge(&mut a, 7));
        assert!(budget.is_over());
        assert!(!budget.charge(&mut b, 1));
    }
}
